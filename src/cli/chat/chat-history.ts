/**
 * What a chat keeps of its conversation besides the messages the model is sent: the earlier exchange a
 * continued chat (`-c`) shows again, the inputs ↑ recalls, and the reply that closes an interrupted turn.
 */
import { assistantText, type Message } from "../../kernel/index.ts";
import type { EarlierMessage } from "../../ui/chat.ts";

/**
 * The user's own words in a user message: the loop wraps them as `Goal: …` (with hints and workspace
 * facts after a blank line) or `New goal: …` (src/agents/loop/perceive.ts initialMessage/continueMessage).
 */
export function userWords(content: string): string {
  const match = /^(?:New goal|Goal): ([\s\S]*?)(?:\n\nHints:\n[\s\S]*|\n\nWorkspace: [\s\S]*)?$/.exec(
    content,
  );
  return (match?.[1] ?? content).trim();
}

/**
 * The conversation as the chat shows it again: user messages and the assistant's text, tool traffic left
 * out. `typed` holds the line the user typed for a message that opened a run (ResumePoint.typed), which a
 * message does not show when the line was expanded (`/name args` sends the skill's body, docs/skills.md).
 */
export function earlierMessages(
  messages: readonly Message[],
  typed: ReadonlyMap<Message, string> = new Map(),
): EarlierMessage[] {
  const shown: EarlierMessage[] = [];
  for (const message of messages) {
    if (message.role === "user")
      shown.push({ role: "user", text: typed.get(message) ?? userWords(message.content) });
    else if (message.role === "assistant") {
      const text = assistantText(message).trim();
      if (text !== "") shown.push({ role: "assistant", text });
    }
  }
  return shown;
}

/** The user's earlier inputs as typed, oldest first, for ↑/↓. */
export function earlierInputs(
  messages: readonly Message[],
  typed: ReadonlyMap<Message, string> = new Map(),
): string[] {
  return earlierMessages(messages, typed)
    .filter((m) => m.role === "user" && m.text !== "")
    .map((m) => m.text);
}

/** What stands in for the answer of a turn the user interrupted before the model replied. */
export const INTERRUPTED_REPLY = "(interrupted by the user before answering)";

/**
 * A conversation that ends with the user's message (a turn interrupted before the model answered) gets an
 * assistant reply saying so. Without it the next message follows it directly, and the provider adapters
 * merge consecutive user turns into one (anthropic-convert.ts, gemini-convert.ts): the model would read
 * `New goal: tell me a slow storyNew goal: line one` as a single message.
 */
export function closeInterruptedTurn(messages: Message[]): void {
  if (messages[messages.length - 1]?.role !== "user") return;
  messages.push({ role: "assistant", parts: [{ type: "text", text: INTERRUPTED_REPLY }] });
}
