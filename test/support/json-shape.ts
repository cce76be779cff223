/**
 * Checks of the one JSON output shape (docs/ci-and-json.md "Machine-readable output", schema 2): every key in
 * snake_case (a tool call's arguments, `args` of tool events and approval requests and `arguments` of
 * the tool calls in `message` events, are the model's own and are not looked into) and every cost
 * rounded to at most 6 decimals.
 */
import { expect } from "bun:test";

/** The top-level keys of a successful `agent helper --json` result (docs/ci-and-json.md), sorted. */
export const HELPER_RESULT_KEYS = [
  "answer",
  "context_elided",
  "denials",
  "exit_code",
  "finish_reason",
  "model",
  "provider",
  "schema_version",
  "status",
  "stumbles",
  "tool_calls",
  "turns",
  "type",
  "usage",
  "warnings",
];

const SNAKE = /^[a-z0-9]+(_[a-z0-9]+)*$/;
/** Keys whose value is a tool call's arguments, named by the model. */
const MODEL_ARGUMENTS = new Set(["args", "arguments"]);

/** Every object key below `value` that is not snake_case, as `path.key`. */
export function nonSnakeKeys(value: unknown, path = "$"): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => nonSnakeKeys(item, `${path}[${i}]`));
  if (value === null || typeof value !== "object") return [];
  const bad: string[] = [];
  for (const [key, inner] of Object.entries(value)) {
    if (!SNAKE.test(key)) bad.push(`${path}.${key}`);
    if (!MODEL_ARGUMENTS.has(key)) bad.push(...nonSnakeKeys(inner, `${path}.${key}`));
  }
  return bad;
}

/** Every `*cost_usd` number below `value` with more than 6 decimals. */
export function unroundedCosts(value: unknown, path = "$"): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => unroundedCosts(item, `${path}[${i}]`));
  if (value === null || typeof value !== "object") return [];
  const bad: string[] = [];
  for (const [key, inner] of Object.entries(value)) {
    if (key.endsWith("cost_usd") && typeof inner === "number" && Math.round(inner * 1e6) / 1e6 !== inner)
      bad.push(`${path}.${key}=${inner}`);
    bad.push(...unroundedCosts(inner, `${path}.${key}`));
  }
  return bad;
}

/** Asserts the shape of one output object (or a list of lines). */
export function expectJsonShape(value: unknown): void {
  expect(nonSnakeKeys(value)).toEqual([]);
  expect(unroundedCosts(value)).toEqual([]);
}
