import type { Message } from "../../kernel/index.ts";

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
