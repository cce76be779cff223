/**
 * Whether a task passed: its run ended as expected (by default: exit 0; or the `expect:` status, exit
 * code, finish reason, answer pattern and denial bounds of the suite) and every check exited 0. Each
 * reason it did not is one line of `failures`.
 */

import type { TaskExpectation } from "../suite/suite-schema.ts";
import type { AgentRunOutcome } from "./agent-process.ts";
import type { CheckResult } from "./task-checks.ts";

export function taskFailures(
  expect: TaskExpectation,
  run: AgentRunOutcome,
  answer: string,
  checks: readonly CheckResult[],
): string[] {
  const failures: string[] = [];
  const result = run.result;
  if (!result) {
    failures.push(`agent run printed no result (exit ${run.exitCode}): ${lastLine(run.stderrTail)}`);
  } else {
    const status = result.status ?? "error";
    const denials = result.denials?.length ?? 0;
    const wantExit = expect.exit_code ?? (expect.status === undefined ? 0 : undefined);
    if (wantExit !== undefined && run.exitCode !== wantExit)
      failures.push(`exit code ${run.exitCode}, expected ${wantExit}${errorText(result.error)}`);
    if (expect.status !== undefined && status !== expect.status)
      failures.push(`status ${status}, expected ${expect.status}${errorText(result.error)}`);
    if (expect.finish_reason !== undefined && result.finish_reason !== expect.finish_reason)
      failures.push(`finish reason ${result.finish_reason ?? "none"}, expected ${expect.finish_reason}`);
    if (expect.answer_matches !== undefined && !new RegExp(expect.answer_matches, "i").test(answer))
      failures.push(`the answer does not match /${expect.answer_matches}/i`);
    if (expect.min_denials !== undefined && denials < expect.min_denials)
      failures.push(`${denials} denials, expected at least ${expect.min_denials}`);
    if (expect.max_denials !== undefined && denials > expect.max_denials)
      failures.push(`${denials} denials, expected at most ${expect.max_denials}`);
  }
  for (const check of checks) {
    if (check.passed) continue;
    const how = check.interrupted
      ? "was interrupted"
      : check.timed_out
        ? "timed out"
        : `exited ${check.exit_code ?? "without a code"}`;
    failures.push(`check \`${check.name}\` ${how}`);
  }
  return failures;
}

function errorText(error: { kind?: string; message?: string } | undefined): string {
  return error?.message ? ` (${error.kind ?? "error"}: ${error.message})` : "";
}

function lastLine(text: string): string {
  return text.trim().split("\n").at(-1) ?? "";
}
