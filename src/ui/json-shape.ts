/**
 * The one JSON shape of the machine-readable output (docs/ci-and-json.md "Machine-readable output"): snake_case keys
 * everywhere (the helper's `--json`, the run result, every stream-json line), costs rounded to 6
 * decimals, and the error object every failed exit prints in JSON mode.
 *
 * Schema versions: 1 had camelCase inside event data (`isError`, `durationMs`) and the helper's
 * `costUsd`; 2 is snake_case throughout, with `schema_version` on the init line and on every result.
 */
import { roundUsd } from "../kernel/conversation/usage.ts";

/** Version of the JSON output format (init line and result objects); bump on incompatible changes. */
export const SCHEMA_VERSION = 2;

/** `durationMs` → `duration_ms`; keys already in snake_case stay as they are. */
export function snakeKey(key: string): string {
  return key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/**
 * Values passed through untouched: a tool call's arguments keep the names the model chose, whether as
 * `args` (tool_start, approval requests) or as `arguments` (the tool calls of an assistant `message`).
 */
const VERBATIM_KEYS = new Set(["args", "arguments"]);

/**
 * A copy of `value` with every object key in snake_case (recursively, arrays included), except under
 * {@link VERBATIM_KEYS}; every number under a key ending in `cost_usd` goes through {@link roundUsd}.
 */
export function snakeCaseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeCaseKeys);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    const name = snakeKey(key);
    if (VERBATIM_KEYS.has(key)) out[name] = inner;
    else if (name.endsWith("cost_usd") && typeof inner === "number") out[name] = roundUsd(inner);
    else out[name] = snakeCaseKeys(inner);
  }
  return out;
}

/** What every failed exit prints in JSON mode when no run result exists (usage, config, key, internal). */
export interface ErrorRecord {
  type: "result";
  schema_version: number;
  status: "error";
  error: { kind: string; message: string };
  exit_code: number;
}

export function errorRecord(kind: string, message: string, exitCode: number): ErrorRecord {
  return {
    type: "result",
    schema_version: SCHEMA_VERSION,
    status: "error",
    error: { kind, message },
    exit_code: exitCode,
  };
}
