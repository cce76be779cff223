import { type Message, type ModelRef, makeEvent } from "../../kernel/index.ts";
import { StallDetector } from "./guards.ts";
import { append, type Node } from "./node.ts";

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

/** The history without reasoning parts: they belong to the model that wrote them. */
export function withoutReasoning(messages: readonly Message[]): Message[] {
  return messages.map((message) =>
    message.role === "assistant"
      ? { ...message, parts: message.parts.filter((part) => part.type !== "reasoning") }
      : message,
  );
}

/** A stalled root continues once on the next tier, its conversation kept; false when it cannot. */
export function escalate(node: Node, turn: number): boolean {
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
