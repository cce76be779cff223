import { assistantText, assistantToolCalls, makeEvent } from "../../kernel/index.ts";
import { act } from "./act.ts";
import { describeBudget } from "./bookkeeping/usage-tracker.ts";
import { notRunResult, withTextToolCalls } from "./context/history.ts";
import { escalate } from "./escalation.ts";
import { aborted, append, finishNode, type Node, type NodeOutcome } from "./node.ts";
import { perceive } from "./perceive.ts";
import { plan } from "./plan.ts";
import { finishStalled, verifyAnswer, verifyResults } from "./verify.ts";

/** The turns of one run in loop order: perceive (perceive.ts), then plan (plan.ts), act (act.ts) and verify
 * (verify.ts) until an answer or a limit ends the run; each phase a function over the run's state (`Node`,
 * node.ts). */

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
  if (calls.length === 0) return verifyAnswer(node, text, turn);
  if (node.nudged) {
    // Told to answer without tools and still calling them: close the calls and end with a stall.
    for (const call of calls)
      append(node, notRunResult(call, "not run: you were told to answer without tools"));
    return escalate(node, turn) ? undefined : finishStalled(node);
  }
  const acted = await act(node, calls);
  if (acted.end) return acted.end;
  verifyResults(node, calls, acted.results);
  return undefined;
}
