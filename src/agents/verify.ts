import { type AgentIdentity, type EmitFn, makeEvent, Redactor } from "../kernel/index.ts";
import { minimalEnv } from "../tools/exec-env.ts";
import { runCommand } from "../tools/run-command.ts";
import type { CallResult } from "./act.ts";
import type { LearnRecorder } from "./learn.ts";

/**
 * Verify: judges each tool result (success, failure, stumble) and runs the spec's `verify:`
 * commands before an agent may finish.
 */

/** Judges one response's results: a verify event and a learn signal per result. */
export function judgeResults(
  results: CallResult[],
  who: AgentIdentity,
  emit: EmitFn,
  learn: LearnRecorder,
): void {
  for (const r of results) {
    if (r.outcome === "aborted") continue;
    const ok = r.outcome === "ok";
    const detail = firstLine(r.message.content);
    emit(makeEvent(who, "verify", { step: "tool", ok, detail: `${r.message.toolName}: ${detail}` }));
    const signal = r.outcome === "ok" ? "success" : r.outcome === "stumble" ? "stumble" : "failure";
    learn.record({
      signal,
      tool: r.message.toolName,
      detail: r.outcome === "denied" ? `denied: ${detail}` : detail,
    });
  }
}

function firstLine(text: string): string {
  const line = text.split("\n", 1)[0] ?? "";
  return line.length > 200 ? `${line.slice(0, 197)}...` : line;
}

/** The outcome of the verify commands: ok, or the failing command and its output. */
export type VerifyOutcome =
  | { ok: true }
  | { ok: false; command: string; exitCode: number | null; output: string; timedOut: boolean };

/** Output kept from a failing command (its tail, where errors usually are). */
const MAX_OUTPUT_CHARS = 8000;

/**
 * Runs the commands in order in `cwd` with the exec primitive's machinery (own process group, minimal
 * environment without keys, output cap; output redacted); stops at the first failure. A command past
 * `timeoutMs` or aborted counts as failed.
 */
export async function runVerifyCommands(
  commands: string[],
  options: { cwd: string; timeoutMs: number; signal: AbortSignal; who: AgentIdentity; emit: EmitFn },
): Promise<VerifyOutcome> {
  const redactor = Redactor.fromEnv();
  for (const command of commands) {
    const result = await runCommand(command, {
      cwd: options.cwd,
      env: minimalEnv(process.env),
      timeoutMs: options.timeoutMs,
      signal: options.signal,
      outputLimit: MAX_OUTPUT_CHARS,
    });
    const output = redactor.redact(result.spawnError ?? result.output);
    const ok = result.exitCode === 0 && !result.timedOut && !result.aborted;
    const detail = ok
      ? `passed: ${command}`
      : result.timedOut
        ? `timed out after ${options.timeoutMs} ms: ${command}`
        : `exit ${result.exitCode ?? "signal"}: ${command}`;
    options.emit(makeEvent(options.who, "verify", { step: "command", ok, detail, command }));
    if (!ok) return { ok: false, command, exitCode: result.exitCode, output, timedOut: result.timedOut };
  }
  return { ok: true };
}

/** The user message telling the model its work failed verification. */
export function verifyFailureMessage(failure: Extract<VerifyOutcome, { ok: false }>): string {
  const how = failure.timedOut ? "timed out" : `failed with exit code ${failure.exitCode ?? "(killed)"}`;
  return (
    `Verification ${how}: \`${failure.command}\`. You may not finish until it passes.\n` +
    `Output:\n${failure.output || "(no output)"}\n\nFix the problem, then answer again.`
  );
}
