import { type AgentIdentity, type EmitFn, makeEvent } from "../../kernel/index.ts";
import { minimalEnv } from "../../tools/exec/exec-env.ts";
import { type CommandResult, runCommand } from "../../tools/exec/run-command.ts";
import type { Tool } from "../../tools/types.ts";
import type { Finish } from "./finish.ts";
import type { LearnRecorder } from "./learn.ts";
import { type CallResult, type InvokeContext, invoke } from "./tool-calls/invoke.ts";

/**
 * Verify: judges each tool result (success, failure, stumble) and runs the spec's `verify:`
 * commands, through the approval gate, before an agent may finish. The loop calls both at its verify hook
 * points (run-loop.ts).
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
  | { ok: false; kind: "approval_needed"; command: string; message: string };

/** Output kept from a failing command (its tail, where errors usually are). */
const MAX_OUTPUT_CHARS = 8000;

export interface VerifyOptions {
  /** The run's pipeline context: every verify command is a tool call of its own, checked by the session's
   * approval gate exactly like a model's `exec` call (same rules, hooks, prompt or `--on-ask`), so a spec
   * file, a cloned repository's included, cannot run a command by itself. */
  invoke: InvokeContext;
  timeoutMs: number;
  /** Where the commands come from, shown in the approval prompt (e.g. `./.agent/agents/x.yaml`). */
  origin: string;
}

/**
 * A spec's `verify:` commands as a tool: its policy target is `exec` with the command, run with the exec
 * primitive's machinery (own process group, minimal environment without keys, output cap, the workspace's
 * sandbox). `ran` keeps each call's command result for the verdict.
 */
function verifyTool(options: VerifyOptions, ran: Map<string, CommandResult>): Tool<{ command: string }> {
  const { who, workspace, signal } = options.invoke;
  return {
    name: "verify",
    kind: "verify",
    description: `the verify: commands of ${who.name}`,
    parameters: { type: "object", properties: { command: { type: "string" } }, required: ["command"] },
    readOnly: false,
    concurrent: false,
    policyName: "exec",
    validate: (args) => {
      const command = (args as { command?: unknown } | undefined)?.command;
      return typeof command === "string"
        ? { ok: true, value: { command } }
        : { ok: false, error: "no command" };
    },
    policyTarget: async ({ command }) => ({ targets: [command], sensitive: false }),
    preview: async ({ command }) =>
      `${command}\n(the verify: command of ${who.name}, from ${options.origin})`,
    async execute({ command }, ctx) {
      const result = await runCommand(command, {
        cwd: workspace.root,
        env: minimalEnv(process.env),
        timeoutMs: options.timeoutMs,
        signal,
        outputLimit: MAX_OUTPUT_CHARS,
        // The workspace's sandbox, the same exec runs in; unsandboxed when absent.
        sandbox: workspace.sandbox,
      });
      ran.set(ctx.callId ?? command, result);
      const ok = result.exitCode === 0 && !result.timedOut && !result.aborted;
      const output = result.spawnError ?? result.output;
      return { modelText: output, display: `$ ${command}`, isError: !ok };
    },
  };
}

/**
 * Runs the commands in order, each through the tool pipeline (approval, hooks, redaction); stops at the
 * first failure or refusal. A command past `timeoutMs` or aborted counts as failed.
 */
export async function runVerifyCommands(commands: string[], options: VerifyOptions): Promise<VerifyOutcome> {
  const ran = new Map<string, CommandResult>();
  const tool = verifyTool(options, ran);
  const { who, emit } = options.invoke;
  for (const [i, command] of commands.entries()) {
    const id = `verify-${who.agent}-${i + 1}`;
    const call = await invoke(tool, { id, name: "verify", arguments: { command } }, options.invoke);
    const result = ran.get(id);
    if (!result) {
      const stopped = call.stop !== undefined;
      const detail =
        call.outcome === "denied" && !stopped
          ? `not run (${call.message.content})`
          : "not run: approval needed";
      emit(makeEvent(who, "verify", { step: "command", ok: false, detail, command }));
      if (stopped) return { ok: false, kind: "approval_needed", command, message: call.stop ?? "" };
      if (call.outcome === "denied")
        return { ok: false, kind: "denied", command, message: call.message.content };
      return {
        ok: false,
        kind: "failed",
        command,
        exitCode: null,
        output: call.message.content,
        timedOut: false,
      };
    }
    const ok = !call.message.isError;
    const detail = ok
      ? `passed: ${command}`
      : result.timedOut
        ? `timed out after ${options.timeoutMs} ms: ${command}`
        : `exit ${result.exitCode ?? "signal"}: ${command}`;
    emit(makeEvent(who, "verify", { step: "command", ok, detail, command }));
    if (!ok) {
      const output = call.message.content;
      return {
        ok: false,
        kind: "failed",
        command,
        exitCode: result.exitCode,
        output,
        timedOut: result.timedOut,
      };
    }
  }
  return { ok: true };
}

/**
 * How a run ends when its verification cannot pass: `--on-ask fail` ends the session (approval_needed,
 * exit 6); a command that was not approved leaves the agent unverified (verify_failed, exit 1, with the
 * refusal as its error); a command that kept failing is verify_failed.
 */
export function unverifiedFinish(failure: VerifyFailure, agentName: string, answer: string): Finish {
  switch (failure.kind) {
    case "approval_needed":
      // The run stopped before its answer was checked: none is given (stdout holds exactly the answer).
      return {
        finishReason: "approval_needed",
        answer: "",
        error: { kind: "approval", message: failure.message },
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
