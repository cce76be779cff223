import {
  type AgentIdentity,
  ApprovalNeededError,
  type EmitFn,
  makeEvent,
  Redactor,
} from "../kernel/index.ts";
import { minimalEnv } from "../tools/exec-env.ts";
import { runCommand } from "../tools/run-command.ts";
import type { ExecSandbox } from "../tools/sandbox.ts";
import type { CallResult } from "./act.ts";
import type { LearnRecorder } from "./learn.ts";
import type { Finish } from "./run-state.ts";
import type { ToolGate } from "./types.ts";

/**
 * Verify: judges each tool result (success, failure, stumble) and runs the spec's `verify:`
 * commands, through the approval gate, before an agent may finish.
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

/**
 * The outcome of the verify commands: ok; a command that ran and failed; a command the approval gate
 * refused (it never ran); or `--on-ask fail` demanding that the session stop.
 */
export type VerifyOutcome = { ok: true } | VerifyFailure;

export type VerifyFailure =
  | { ok: false; kind: "failed"; command: string; exitCode: number | null; output: string; timedOut: boolean }
  | { ok: false; kind: "denied"; command: string; message: string }
  | { ok: false; kind: "approval_needed"; command: string; error: ApprovalNeededError };

/** Output kept from a failing command (its tail, where errors usually are). */
const MAX_OUTPUT_CHARS = 8000;

export interface VerifyOptions {
  cwd: string;
  timeoutMs: number;
  signal: AbortSignal;
  who: AgentIdentity;
  emit: EmitFn;
  /**
   * The session's approval gate: every verify command is checked exactly like a model's `exec` call
   * (same rules, same prompt or `--on-ask`), so a spec file, a cloned repository's included, cannot
   * run a command by itself.
   */
  gate: ToolGate;
  /** Where the commands come from, shown in the approval prompt (e.g. `./.agent/agents/x.yaml`). */
  origin: string;
  /** The workspace's sandbox, the same exec runs in; unsandboxed when absent. */
  sandbox?: ExecSandbox | undefined;
}

/**
 * Runs the commands in order in `cwd` with the exec primitive's machinery (own process group, minimal
 * environment without keys, output cap, the workspace's sandbox; output redacted), each only once the
 * approval gate allows it; stops at the first failure or refusal. A command past `timeoutMs` or aborted
 * counts as failed.
 */
export async function runVerifyCommands(commands: string[], options: VerifyOptions): Promise<VerifyOutcome> {
  const redactor = Redactor.fromEnv();
  for (const command of commands) {
    const refused = await approve(command, options);
    if (refused) {
      const detail = refused.kind === "denied" ? `not run (${refused.message})` : "not run: approval needed";
      options.emit(makeEvent(options.who, "verify", { step: "command", ok: false, detail, command }));
      return refused;
    }
    const result = await runCommand(command, {
      cwd: options.cwd,
      env: minimalEnv(process.env),
      timeoutMs: options.timeoutMs,
      signal: options.signal,
      outputLimit: MAX_OUTPUT_CHARS,
      sandbox: options.sandbox,
    });
    const output = redactor.redact(result.spawnError ?? result.output);
    const ok = result.exitCode === 0 && !result.timedOut && !result.aborted;
    const detail = ok
      ? `passed: ${command}`
      : result.timedOut
        ? `timed out after ${options.timeoutMs} ms: ${command}`
        : `exit ${result.exitCode ?? "signal"}: ${command}`;
    options.emit(makeEvent(options.who, "verify", { step: "command", ok, detail, command }));
    if (!ok)
      return {
        ok: false,
        kind: "failed",
        command,
        exitCode: result.exitCode,
        output,
        timedOut: result.timedOut,
      };
  }
  return { ok: true };
}

/** Puts one verify command to the gate as an `exec` call; undefined when it may run. */
async function approve(command: string, options: VerifyOptions): Promise<VerifyFailure | undefined> {
  try {
    const decision = await options.gate.check(
      {
        who: options.who,
        tool: "exec",
        args: { command },
        request: { tool: "exec", targets: [command], readOnly: false, sensitive: false },
        preview: async () =>
          `${command}\n(the verify: command of ${options.who.name}, from ${options.origin})`,
      },
      options.signal,
    );
    return decision.allowed ? undefined : { ok: false, kind: "denied", command, message: decision.message };
  } catch (error) {
    if (error instanceof ApprovalNeededError) return { ok: false, kind: "approval_needed", command, error };
    if (!options.signal.aborted) throw error;
    return { ok: false, kind: "failed", command, exitCode: null, output: "aborted", timedOut: false };
  }
}

/**
 * How a run ends when its verification cannot pass: `--on-ask fail` ends the session (approval_needed,
 * exit 6); a command that was not approved leaves the agent unverified (verify_failed, exit 1, with the
 * refusal as its error); a command that kept failing is verify_failed.
 */
export function unverifiedFinish(failure: VerifyFailure, agentName: string, answer: string): Finish {
  switch (failure.kind) {
    case "approval_needed":
      return {
        finishReason: "approval_needed",
        answer,
        error: { kind: "approval", message: failure.error.message },
      };
    case "denied":
      return {
        finishReason: "verify_failed",
        answer,
        error: {
          kind: "approval",
          message: `verify command not approved, so ${agentName} is unverified: ${failure.message}`,
        },
      };
    case "failed":
      return { finishReason: "verify_failed", answer };
  }
}

/** The user message telling the model its work failed verification. */
export function verifyFailureMessage(failure: Extract<VerifyFailure, { kind: "failed" }>): string {
  const how = failure.timedOut ? "timed out" : `failed with exit code ${failure.exitCode ?? "(killed)"}`;
  return (
    `Verification ${how}: \`${failure.command}\`. You may not finish until it passes.\n` +
    `Output:\n${failure.output || "(no output)"}\n\nFix the problem, then answer again.`
  );
}
