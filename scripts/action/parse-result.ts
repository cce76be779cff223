/**
 * agent's JSON result from its stdout: `-o json` prints exactly one object with `type: "result"` on every
 * exit (docs/ci-and-json.md "One JSON object on every exit"). Should stdout hold none (agent killed, or
 * Bun missing), the result is an error of kind `internal` naming the exit code, so the outputs and the
 * summary are still written.
 */
import type { ActionResult } from "./summary.ts";

export function parseResult(stdout: string, exitCode: number): ActionResult {
  const last = stdout.trimEnd().split("\n").at(-1) ?? "";
  try {
    const value: unknown = JSON.parse(last);
    if (value !== null && typeof value === "object" && (value as { type?: unknown }).type === "result") {
      const result = value as ActionResult;
      // The process's code is the truth (it equals `exit_code` whenever agent printed its result).
      return { ...result, exit_code: exitCode };
    }
  } catch {
    // Not JSON: reported below.
  }
  return {
    type: "result",
    status: "error",
    exit_code: exitCode === 0 ? 70 : exitCode,
    error: { kind: "internal", message: `agent printed no JSON result (exit code ${exitCode})` },
  };
}
