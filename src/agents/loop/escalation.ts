import { freezeHistory } from "../../kernel/conversation/freeze.ts";
import { type Message, type ModelRef, makeEvent } from "../../kernel/index.ts";
import { StallDetector } from "./guards.ts";
import { append, type RunBase, type TurnState } from "./run-state.ts";

/**
 * Escalation of a stalled run: once, to the next tier, continuing the same conversation (the stalled
 * attempt's calls, results and the stall note stay in the history), not from scratch. Only a run whose
 * model is a tier can escalate (fast -> good -> best); `--no-fallback` turns it off.
 */

const NEXT_TIER: Readonly<Record<string, string>> = { fast: "good", good: "best" };

/** The tier after `name`, or undefined when `name` is not a tier below best. */
export function nextTier(name: string): string | undefined {
  return NEXT_TIER[name.trim().toLowerCase()];
}

/** What the stronger model is told after the stalled conversation. */
export function escalationNote(goal: string): string {
  return (
    "This task is now handed to a stronger model: the attempt above stalled, repeating itself. " +
    `Use what it found, do not repeat its calls, and finish the task:\n${goal}`
  );
}

/** The history without reasoning parts: they belong to the model that wrote them. Frozen as appended
 * messages are (freeze.ts). */
export function withoutReasoning(messages: readonly Message[]): Message[] {
  return freezeHistory(
    messages.map((message) =>
      message.role === "assistant"
        ? { ...message, parts: message.parts.filter((part) => part.type !== "reasoning") }
        : message,
    ),
  );
}

/**
 * The escalation hook (run-loop.ts calls it where a stall would end the run): a stalled root continues once
 * on the next tier, its conversation kept, its stall detector fresh and its turns counted again; false when
 * it cannot.
 */
export function escalate(base: RunBase, state: TurnState, turn: number): boolean {
  const next = state.escalateTo;
  state.escalateTo = undefined;
  if (next === undefined || base.abort.signal.aborted) return false;
  let ref: ModelRef;
  try {
    ref = base.options.resolveModel(next);
  } catch {
    return false;
  }
  const reason = `stalled: escalating once to ${next}, with the conversation so far`;
  base.options.emit(makeEvent(base.who, "model_switch", { from: state.model.ref.id, to: ref.id, reason }));
  state.model = { ref, info: base.options.modelInfo(ref) };
  state.messages.splice(0, state.messages.length, ...withoutReasoning(state.messages));
  append(base, state, { role: "user", content: escalationNote(base.options.goal) });
  state.stall = new StallDetector();
  state.nudged = false;
  state.turnBase = turn;
  return true;
}
