import { jsonrepair } from "jsonrepair";
import type { ToolCall } from "../../../kernel/index.ts";

/**
 * Recovering tool calls from imperfect model output: malformed argument JSON (repaired with
 * jsonrepair when that is safe) and tool calls written as JSON in plain text.
 */

export type RepairOutcome =
  | { ok: true; call: ToolCall; repaired: boolean }
  | { ok: false; error: string; rawArguments: string };

/**
 * Repairs a call whose argument text did not parse. Safe means: the text looks complete (it ends
 * with `}`, so nothing was cut off mid-value) and the repaired text parses to a JSON object.
 */
export function repairToolCall(call: ToolCall): RepairOutcome {
  if (call.parseError === undefined) return { ok: true, call, repaired: false };
  const raw = call.rawArguments ?? "";
  const trimmed = raw.trim();
  const fail = (why: string): RepairOutcome => ({
    ok: false,
    error: `the arguments are not valid JSON (${call.parseError}); ${why}`,
    rawArguments: raw,
  });
  if (trimmed === "") return fail("they were empty");
  if (!trimmed.endsWith("}")) return fail("they look cut off, so they were not guessed at");
  let repairedText: string;
  try {
    repairedText = jsonrepair(trimmed);
  } catch (error) {
    return fail(`repair failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(repairedText);
  } catch {
    return fail("repair did not produce JSON");
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return fail("they do not form a JSON object");
  }
  const { parseError: _p, rawArguments: _r, ...rest } = call;
  return { ok: true, call: { ...rest, arguments: value as Record<string, unknown> }, repaired: true };
}

/** A tool call found in assistant text. */
export interface TextToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

const ARGUMENT_KEYS = ["arguments", "parameters", "input", "args"] as const;
const FENCE = /```(?:json|tool_call|tool)?\s*\n([\s\S]*?)\n?```/g;

function asCall(value: unknown, toolNames: ReadonlySet<string>): TextToolCall | undefined {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  const fn = record.function;
  if (fn !== null && typeof fn === "object" && !Array.isArray(fn)) return asCall(fn, toolNames);
  const name = record.name ?? record.tool;
  if (typeof name !== "string" || !toolNames.has(name)) return undefined;
  const otherKeys = Object.keys(record).filter(
    (k) => k !== "name" && k !== "tool" && k !== "type" && k !== "id",
  );
  for (const key of ARGUMENT_KEYS) {
    const args = record[key];
    if (args === undefined) continue;
    const parsed = typeof args === "string" ? safeParse(args) : args;
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return undefined;
    if (otherKeys.length !== 1) return undefined;
    return { name, arguments: parsed as Record<string, unknown> };
  }
  return otherKeys.length === 0 ? { name, arguments: {} } : undefined;
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function callsIn(value: unknown, toolNames: ReadonlySet<string>): TextToolCall[] | undefined {
  const items = Array.isArray(value) ? value : [value];
  if (items.length === 0) return undefined;
  const calls: TextToolCall[] = [];
  for (const item of items) {
    const call = asCall(item, toolNames);
    if (!call) return undefined;
    calls.push(call);
  }
  return calls;
}

/**
 * Finds tool calls written as text: the whole answer is `{"name": ..., "arguments": {...}}` (or an
 * array of those), or fenced json blocks of that shape. Only calls naming a real tool count.
 * Returns the calls and the text left over, or undefined when the text holds no such call.
 */
export function detectTextToolCalls(
  text: string,
  toolNames: ReadonlySet<string>,
): { calls: TextToolCall[]; rest: string } | undefined {
  const trimmed = text.trim();
  if (trimmed === "") return undefined;
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    const whole = callsIn(safeParse(trimmed), toolNames);
    if (whole) return { calls: whole, rest: "" };
  }
  const calls: TextToolCall[] = [];
  let rest = text;
  for (const match of text.matchAll(FENCE)) {
    const found = callsIn(safeParse((match[1] ?? "").trim()), toolNames);
    if (!found) continue;
    calls.push(...found);
    rest = rest.replace(match[0], "");
  }
  return calls.length > 0 ? { calls, rest: rest.trim() } : undefined;
}
