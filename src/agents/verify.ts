import { type AgentIdentity, type EmitFn, makeEvent, Redactor } from "../kernel/index.ts";
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
 * Runs the commands in order in `cwd` (via `sh -c`, secret-looking variables removed, output
 * redacted); stops at the first failure. A command past `timeoutMs` or aborted counts as failed.
 */
export async function runVerifyCommands(
  commands: string[],
  options: { cwd: string; timeoutMs: number; signal: AbortSignal; who: AgentIdentity; emit: EmitFn },
): Promise<VerifyOutcome> {
  const redactor = Redactor.fromEnv();
  for (const command of commands) {
    const result = await runCommand(command, options.cwd, options.timeoutMs, options.signal);
    const output = redactor.redact(result.output);
    const ok = result.exitCode === 0 && !result.timedOut;
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

function safeEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !/(API_?KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL|AUTH)/i.test(key))
      env[key] = value;
  }
  return env;
}

async function runCommand(
  command: string,
  cwd: string,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<{ exitCode: number | null; output: string; timedOut: boolean }> {
  const proc = Bun.spawn(["sh", "-c", command], {
    cwd,
    env: safeEnv(),
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  let timedOut = false;
  const kill = (): void => {
    try {
      proc.kill("SIGKILL");
    } catch {
      // already gone
    }
  };
  const timer = setTimeout(() => {
    timedOut = true;
    kill();
  }, timeoutMs);
  signal.addEventListener("abort", kill, { once: true });
  try {
    const [stdout, stderr, exitCode] = await Promise.all([
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
      proc.exited,
    ]);
    const output = `${stdout}${stderr ? (stdout ? "\n" : "") + stderr : ""}`;
    const tail = output.length > MAX_OUTPUT_CHARS ? `[...]\n${output.slice(-MAX_OUTPUT_CHARS)}` : output;
    return { exitCode: signal.aborted ? null : exitCode, output: tail, timedOut };
  } finally {
    clearTimeout(timer);
    signal.removeEventListener("abort", kill);
  }
}
