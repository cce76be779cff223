import {
  type AgentIdentity,
  ApprovalNeededError,
  type DenialInfo,
  type EmitFn,
  makeEvent,
  type ToolCall,
  type ToolDefinition,
  type ToolResultMessage,
} from "../kernel/index.ts";
import type { Primitive, ToolContext } from "../tools/types.ts";
import type { Workspace } from "../tools/workspace.ts";
import { liveOutput } from "./live-output.ts";
import { repairToolCall } from "./tool-call-repair.ts";
import type { ToolGate } from "./types.ts";

/**
 * Act: runs one response's tool calls. Read-only primitives and delegations run concurrently (bounded);
 * a mutating primitive waits for everything before it and runs alone; results come back in the
 * model's order. Nothing a call does escapes as a throw: every failure is an error result the model
 * can read (except ApprovalNeededError, which must end the session).
 */

/** How one call went, for Verify: ok, the tool failed, the model stumbled, approval denied, aborted. */
export type CallOutcome = "ok" | "tool_error" | "stumble" | "denied" | "aborted";

export interface CallResult {
  message: ToolResultMessage;
  outcome: CallOutcome;
  /** The call's main argument (command, path, URL, a delegation's goal), first line; "" when unknown. */
  target?: string;
  /** How the gate refused it, when outcome is "denied". */
  denial?: DenialInfo;
}

/** What a delegation returns to the parent's model. */
export interface DelegationResult {
  content: string;
  isError: boolean;
}

export interface ActContext {
  who: AgentIdentity;
  emit: EmitFn;
  workspace: Workspace;
  gate: ToolGate;
  signal: AbortSignal;
  /** Primitives offered to the model, by the name the model sees. */
  primitives: ReadonlyMap<string, Primitive>;
  /** Every tool offered (primitives and sub-agents), for schemas and "available tools" errors. */
  definitions: readonly ToolDefinition[];
  /** Sub-agent tool names, and how to run one. */
  subAgents: ReadonlySet<string>;
  delegate: (agentName: string, goal: string, hints: string[], callId: string) => Promise<DelegationResult>;
  concurrency: number;
  now: () => number;
}

/** The message returned for a call that could not run because the run was aborted. */
export const ABORTED_RESULT = "aborted: the run was interrupted before this tool call finished";

/**
 * Runs the calls and returns one result per call, in the calls' order. When the approver demands that
 * the session stop (`--on-ask fail`), the calls not yet run get error results and `approvalError` is set.
 */
export async function actOnCalls(
  calls: ToolCall[],
  ctx: ActContext,
): Promise<{ results: CallResult[]; approvalError?: ApprovalNeededError }> {
  const results: CallResult[] = new Array(calls.length);
  let fatal: ApprovalNeededError | undefined;
  const runOne = async (i: number): Promise<void> => {
    const call = calls[i] as ToolCall;
    if (fatal) {
      results[i] = errorResult(call, `not run: ${fatal.message}`, "aborted");
      return;
    }
    try {
      results[i] = await runCall(call, ctx);
    } catch (error) {
      if (error instanceof ApprovalNeededError) fatal ??= error;
      const message = error instanceof Error ? error.message : String(error);
      results[i] = errorResult(call, `error: ${message}`, "tool_error");
    }
  };
  const limit = limiter(Math.max(1, ctx.concurrency));
  let inflight: Promise<void>[] = [];
  for (let i = 0; i < calls.length; i++) {
    if (isConcurrent(calls[i] as ToolCall, ctx)) {
      inflight.push(limit(() => runOne(i)));
    } else {
      await Promise.all(inflight);
      inflight = [];
      await runOne(i);
    }
  }
  await Promise.all(inflight);
  return fatal ? { results, approvalError: fatal } : { results };
}

function isConcurrent(call: ToolCall, ctx: ActContext): boolean {
  if (ctx.subAgents.has(call.name)) return true;
  const primitive = ctx.primitives.get(call.name);
  return primitive === undefined || primitive.readOnly;
}

/** A concurrency limiter: at most `n` tasks at once, started in call order (a freed slot is handed over). */
function limiter(n: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0;
  const queue: (() => void)[] = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (active < n) active++;
    else await new Promise<void>((resolve) => queue.push(resolve));
    try {
      return await task();
    } finally {
      const next = queue.shift();
      if (next) next();
      else active--;
    }
  };
}

function errorResult(call: ToolCall, content: string, outcome: CallOutcome): CallResult {
  return {
    message: { role: "tool", toolCallId: call.id, toolName: call.name, content, isError: true },
    outcome,
  };
}

function schemaOf(name: string, ctx: ActContext): string {
  const def = ctx.definitions.find((d) => d.name === name);
  return def ? JSON.stringify(def.parameters) : "{}";
}

function availableTools(ctx: ActContext): string {
  return ctx.definitions.map((d) => d.name).join(", ") || "(none)";
}

async function runCall(original: ToolCall, ctx: ActContext): Promise<CallResult> {
  if (ctx.signal.aborted) return errorResult(original, ABORTED_RESULT, "aborted");
  const known = ctx.subAgents.has(original.name) || ctx.primitives.has(original.name);
  if (!known) {
    return traced(original, ctx, async () =>
      errorResult(
        original,
        `error: unknown tool "${original.name}". Available tools: ${availableTools(ctx)}. Call one of these, or answer without tools.`,
        "stumble",
      ),
    );
  }
  const repair = repairToolCall(original);
  if (!repair.ok) {
    return traced(original, ctx, async () =>
      errorResult(
        original,
        `error: ${repair.error}. Raw arguments: ${repair.rawArguments.slice(0, 500)}\n` +
          `Call ${original.name} again with a JSON object matching this schema: ${schemaOf(original.name, ctx)}`,
        "stumble",
      ),
    );
  }
  const call = repair.call;
  if (repair.repaired) {
    ctx.emit(
      makeEvent(ctx.who, "warning", {
        message: `repaired malformed JSON arguments of ${call.name} (${original.parseError})`,
        code: "tool_args_repaired",
      }),
    );
  }
  if (ctx.subAgents.has(call.name)) return delegateCall(call, ctx);
  return traced(call, ctx, () => runPrimitive(call, ctx.primitives.get(call.name) as Primitive, ctx));
}

/** Wraps a primitive-side call in tool_start / tool_end events. */
async function traced(
  call: ToolCall,
  ctx: ActContext,
  body: () => Promise<CallResult & Shown>,
): Promise<CallResult> {
  const started = ctx.now();
  ctx.emit(makeEvent(ctx.who, "tool_start", { id: call.id, tool: call.name, args: call.arguments }));
  const { display, summary: shown, tail, ...result } = await body();
  const summary = shown ?? summarize(result.message.content);
  ctx.emit(
    makeEvent(ctx.who, "tool_end", {
      id: call.id,
      tool: call.name,
      isError: result.message.isError,
      summary,
      display: display ?? summary,
      durationMs: ctx.now() - started,
      ...(tail !== undefined ? { tail } : {}),
    }),
  );
  return result;
}

function summarize(text: string): string {
  const first = text.split("\n", 1)[0] ?? "";
  return first.length > 200 ? `${first.slice(0, 197)}...` : first;
}

/** What a primitive adds for the user: its display, and for commands a summary and the last lines. */
type Shown = { display?: string; summary?: string; tail?: string[] };

async function runPrimitive(
  call: ToolCall,
  primitive: Primitive,
  ctx: ActContext,
): Promise<CallResult & Shown> {
  const valid = primitive.validate(call.arguments);
  if (!valid.ok) {
    return errorResult(
      call,
      `error: ${valid.error}\nExpected a JSON object matching this schema: ${JSON.stringify(primitive.parameters)}`,
      "stumble",
    );
  }
  const toolCtx: ToolContext = {
    workspace: ctx.workspace,
    signal: ctx.signal,
    approveRedirect: async (url) => {
      const refused = await approveRedirect(call, url, ctx);
      if (refused) redirectDenied = refused;
      return refused?.message;
    },
    onOutput: liveOutput(call, ctx),
  };
  // A redirect the gate refused is a denial of this call too (fetch reports it in its result).
  let redirectDenied: { message: string; denial: DenialInfo; url: string } | undefined;
  try {
    const target = await primitive.policyTarget(valid.value, toolCtx);
    const decision = await ctx.gate.check(
      {
        who: ctx.who,
        tool: call.name,
        args: call.arguments,
        request: {
          tool: call.name,
          targets: target.targets,
          readOnly: primitive.readOnly,
          sensitive: target.sensitive,
        },
        preview: () => primitive.preview(valid.value, toolCtx),
      },
      ctx.signal,
    );
    const shown = targetText(target.targets);
    if (!decision.allowed) {
      return { ...errorResult(call, decision.message, "denied"), target: shown, denial: decision.denial };
    }
    const output = await primitive.run(valid.value, toolCtx);
    const refused = redirectDenied as { denial: DenialInfo; url: string } | undefined;
    if (refused) {
      return {
        message: {
          role: "tool",
          toolCallId: call.id,
          toolName: call.name,
          content: output.modelText,
          isError: true,
        },
        outcome: "denied",
        target: targetText([refused.url]),
        denial: refused.denial,
        display: output.display,
      };
    }
    return {
      target: shown,
      message: {
        role: "tool",
        toolCallId: call.id,
        toolName: call.name,
        content: output.modelText,
        isError: output.isError,
      },
      outcome: output.isError ? "tool_error" : "ok",
      display: output.display,
      ...(output.summary !== undefined ? { summary: output.summary } : {}),
      ...(output.tail !== undefined ? { tail: output.tail } : {}),
    };
  } catch (error) {
    if (error instanceof ApprovalNeededError) throw error;
    if (ctx.signal.aborted) return errorResult(call, ABORTED_RESULT, "aborted");
    const message = error instanceof Error ? error.message : String(error);
    return errorResult(call, `error: ${call.name} failed: ${message}`, "tool_error");
  }
}

/** A call's targets as one short line for results and reports. */
function targetText(targets: readonly string[]): string {
  const line = targets.join(", ").split("\n", 1)[0] ?? "";
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}

/** A redirect fetch would follow goes through the gate as a fetch of that URL (rules, then asking). */
async function approveRedirect(
  call: ToolCall,
  url: string,
  ctx: ActContext,
): Promise<{ message: string; denial: DenialInfo; url: string } | undefined> {
  const decision = await ctx.gate.check(
    {
      who: ctx.who,
      tool: call.name,
      args: { url },
      request: { tool: "fetch", targets: [url], readOnly: true, sensitive: false },
      preview: async () => `redirect to ${url}`,
    },
    ctx.signal,
  );
  return decision.allowed ? undefined : { message: decision.message, denial: decision.denial, url };
}

function parseDelegation(args: Record<string, unknown>): { goal: string; hints: string[] } | string {
  const goal = args.goal;
  if (typeof goal !== "string" || goal.trim() === "") return "`goal` must be a non-empty string";
  const hints = args.hints ?? [];
  if (!Array.isArray(hints) || !hints.every((h) => typeof h === "string")) {
    return "`hints` must be a list of strings when given";
  }
  return { goal, hints: hints as string[] };
}

async function delegateCall(call: ToolCall, ctx: ActContext): Promise<CallResult> {
  const parsed = parseDelegation(call.arguments);
  if (typeof parsed === "string") {
    return errorResult(
      call,
      `error: invalid arguments for ${call.name}: ${parsed}\nExpected a JSON object matching this schema: ${schemaOf(call.name, ctx)}`,
      "stumble",
    );
  }
  const result = await ctx.delegate(call.name, parsed.goal, parsed.hints, call.id);
  return {
    target: targetText([parsed.goal]),
    message: {
      role: "tool",
      toolCallId: call.id,
      toolName: call.name,
      content: result.content,
      isError: result.isError,
    },
    outcome: ctx.signal.aborted ? "aborted" : result.isError ? "tool_error" : "ok",
  };
}
