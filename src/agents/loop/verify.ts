import { type AgentIdentity, type EmitFn, makeEvent, type ToolCall } from "../../kernel/index.ts";
import { minimalEnv } from "../../tools/exec/exec-env.ts";
import { type CommandResult, runCommand } from "../../tools/exec/run-command.ts";
import type { Tool } from "../../tools/types.ts";
import { specOrigin } from "../spec/spec.ts";
import { escalate } from "./escalation.ts";
import type { Finish } from "./finish.ts";
import { STALL_NUDGE } from "./guards.ts";
import type { LearnRecorder } from "./learn.ts";
import { type ActContext, aborted, append, finishNode, type Node, type NodeOutcome } from "./node.ts";
import { type CallResult, type InvokeContext, invoke } from "./tool-calls/invoke.ts";

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

/** Verify an answer (the model called no tools): it may finish once its verify commands pass. */
export async function verifyAnswer(node: Node, text: string, turn: number): Promise<NodeOutcome | undefined> {
  if (node.nudged) return escalate(node, turn) ? undefined : finishStalled(node);
  const verified = await verifyCommands(node);
  if (verified.ok) return shaped(node, "stop", text || node.bestAnswer);
  if (verified.kind !== "failed") return unverified(node, verified);
  if (node.run.signal.aborted) return undefined;
  node.verifyFailures++;
  if (node.verifyFailures >= (node.limits.maxVerifyAttempts ?? 3)) return unverified(node, verified);
  append(node, { role: "user", content: verifyFailureMessage(verified) });
  return undefined;
}

/** Verify a turn's results: judge each (success, failure, stumble; learn signals), then watch for stalls. */
export function verifyResults(node: Node, calls: ToolCall[], results: CallResult[]): void {
  judgeResults(results, node.who, node.options.emit, node.learn);
  watchForStall(node, calls, results);
}

function watchForStall(node: Node, calls: ToolCall[], results: CallResult[]): void {
  const mutating = (name: string): boolean => node.tools.get(name)?.readOnly === false;
  const repeated = node.stall.repeatedCall(
    results.map((r, i) => ({
      call: calls[i] as ToolCall,
      result: r.message.content,
      mutated: r.outcome === "ok" && mutating(r.message.toolName),
    })),
  );
  const sameResults = node.stall.recordResults(results.map((r) => r.message));
  if ((!repeated && !sameResults) || node.run.signal.aborted) return;
  const why = repeated ? `repeated call to ${repeated.name}` : "three identical results in a row";
  node.options.emit(makeEvent(node.who, "warning", { message: `stall detected: ${why}`, code: "stall" }));
  append(node, { role: "user", content: STALL_NUDGE });
  node.nudged = true;
}

/** The spec's `verify:` commands, each through the gate as an exec. */
function verifyCommands(node: Node): Promise<VerifyOutcome> {
  return runVerifyCommands(node.options.spec.verify ?? [], {
    invoke: node.act as ActContext,
    timeoutMs: node.limits.verifyTimeoutMs ?? 120_000,
    origin: specOrigin(node.options.spec),
  });
}

/** Ends the run when verification cannot pass: not approved, `--on-ask fail`, or after a stall. */
function unverified(node: Node, failure: VerifyFailure): Promise<NodeOutcome> {
  const end = aborted(node) ?? unverifiedFinish(failure, node.options.spec.name, node.bestAnswer);
  if (failure.kind === "approval_needed" && !node.run.signal.aborted) node.stop = failure.message;
  if (end.error)
    node.options.emit(makeEvent(node.who, "error", { message: end.error.message, kind: end.error.kind }));
  return finishNode(node, end);
}

/** A stall ends in a forced answer: a success only when the verify commands pass too. */
export async function finishStalled(node: Node): Promise<NodeOutcome> {
  const verified = await verifyCommands(node);
  if (!verified.ok) return unverified(node, verified);
  return (await shaped(node, "stall", node.bestAnswer)) as NodeOutcome;
}

/** The final answer, checked against `--schema` when there is one: the end, or a re-ask (undefined). */
function shaped(
  node: Node,
  finishReason: "stop" | "stall",
  answer: string,
): Promise<NodeOutcome> | undefined {
  const end = node.shaper.end(finishReason, answer);
  if ("finishReason" in end) return finishNode(node, end);
  const message = `asking again: ${end.error}`;
  node.options.emit(makeEvent(node.who, "warning", { message, code: "invalid_output" }));
  append(node, { role: "user", content: end.reask });
  return undefined;
}
