import {
  assistantText,
  assistantToolCalls,
  type ModelRef,
  makeEvent,
  type ToolCall,
} from "../../kernel/index.ts";
import { specOrigin } from "../spec/spec.ts";
import { type ActContext, actOnCalls } from "./act.ts";
import { escalationNote, withoutReasoning } from "./escalation.ts";
import { STALL_NUDGE, StallDetector } from "./guards.ts";
import { notRunResult, withTextToolCalls } from "./history.ts";
import type { CallResult } from "./invoke.ts";
import { aborted, append, finishNode, type Node, type NodeOutcome } from "./node.ts";
import { perceive } from "./perceive.ts";
import { plan } from "./plan.ts";
import { describeBudget } from "./usage-tracker.ts";
import {
  judgeResults,
  runVerifyCommands,
  unverifiedFinish,
  type VerifyFailure,
  verifyFailureMessage,
} from "./verify.ts";

/** The turns of one run in loop order: perceive (perceive.ts), then plan (plan.ts), act and verify until an
 * answer or a limit ends the run; each a small function over the run's state (`Node`, node.ts). */

/** Perceive, then turns until one ends the run. */
export async function runTurns(node: Node): Promise<NodeOutcome> {
  await perceive(node);
  for (let turn = 1; ; turn++) {
    const ended = limitsReached(node, turn) ?? (await planAndAct(node, turn));
    if (ended) return ended;
  }
}

/** The limits checked before each turn: abort and timeout, max turns, token and cost budgets. */
function limitsReached(node: Node, turn: number): Promise<NodeOutcome> | undefined {
  const stopped = aborted(node);
  if (stopped) return finishNode(node, stopped);
  const maxTurns = node.limits.maxTurns ?? node.options.spec.constraints.max_turns;
  if (turn - node.turnBase > maxTurns)
    return finishNode(node, { finishReason: "max_turns", answer: node.bestAnswer });
  const over = node.shared.tracker.exceeded(node.who.agent);
  if (!over) return undefined;
  node.options.emit(makeEvent(node.who, "warning", { message: describeBudget(over), code: "budget" }));
  return finishNode(node, { finishReason: "budget", answer: node.bestAnswer });
}

/** Plan one turn, then answer, act or continue; an outcome when the run ends. */
async function planAndAct(node: Node, turn: number): Promise<NodeOutcome | undefined> {
  const planned = await plan(node, turn);
  if (!planned.ok) return planned.end;
  const message = withTextToolCalls(
    planned.message,
    new Set(node.tools.keys()),
    node.who,
    node.options.emit,
    turn,
  );
  append(node, message);
  const text = node.stops.answer(assistantText(message)).trim();
  if (text) node.bestAnswer = text;
  if (planned.refusal) return finishNode(node, { finishReason: "refusal", answer: node.bestAnswer });
  const calls = assistantToolCalls(message);
  if (calls.length === 0) return answered(node, text, turn);
  if (node.nudged) {
    // Told to answer without tools and still calling them: close the calls and end with a stall.
    for (const call of calls)
      append(node, notRunResult(call, "not run: you were told to answer without tools"));
    return escalate(node, turn) ? undefined : finishStalled(node);
  }
  return act(node, calls);
}

/** The model answered without tool calls: it may finish once its verify commands pass. */
async function answered(node: Node, text: string, turn: number): Promise<NodeOutcome | undefined> {
  if (node.nudged) return escalate(node, turn) ? undefined : finishStalled(node);
  const verified = await verify(node);
  if (verified.ok) return shaped(node, "stop", text || node.bestAnswer);
  if (verified.kind !== "failed") return unverified(node, verified);
  if (node.run.signal.aborted) return undefined;
  node.verifyFailures++;
  if (node.verifyFailures >= (node.limits.maxVerifyAttempts ?? 3)) return unverified(node, verified);
  append(node, { role: "user", content: verifyFailureMessage(verified) });
  return undefined;
}

function verify(node: Node) {
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
async function finishStalled(node: Node): Promise<NodeOutcome> {
  const verified = await verify(node);
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

/** A stalled root continues once on the next tier, its conversation kept; false when it cannot. */
function escalate(node: Node, turn: number): boolean {
  const next = node.escalateTo;
  node.escalateTo = undefined;
  if (next === undefined || node.run.signal.aborted) return false;
  let ref: ModelRef;
  try {
    ref = node.options.resolveModel(next);
  } catch {
    return false;
  }
  const reason = `stalled: escalating once to ${next}, with the conversation so far`;
  node.options.emit(
    makeEvent(node.who, "model_switch", { from: (node.model as ModelRef).id, to: ref.id, reason }),
  );
  node.model = ref;
  node.info = node.options.modelInfo(ref);
  node.messages.splice(0, node.messages.length, ...withoutReasoning(node.messages));
  append(node, { role: "user", content: escalationNote(node.options.goal) });
  node.stall = new StallDetector();
  node.nudged = false;
  node.turnBase = turn;
  return true;
}

/** Act: every call through the pipeline; then Verify judges the results and watches for stalls. */
async function act(node: Node, calls: ToolCall[]): Promise<NodeOutcome | undefined> {
  const { results, stop } = await actOnCalls(calls, node.act as ActContext);
  for (const r of results) append(node, r.message);
  node.shared.log.results(node.who, results);
  if (stop !== undefined) {
    node.stop = stop;
    node.options.emit(makeEvent(node.who, "error", { message: stop, kind: "approval" }));
    const error = { kind: "approval" as const, message: stop };
    // No answer: what the model said so far is a preamble ("Delegating the edit."), not a result, and
    // stdout holds exactly the answer.
    return finishNode(node, { finishReason: "approval_needed", answer: "", error });
  }
  judgeResults(results, node.who, node.options.emit, node.learn);
  watchForStall(node, calls, results);
  return undefined;
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
