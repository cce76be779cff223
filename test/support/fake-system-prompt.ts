/**
 * The system prompt of a request body the fake LLM server received, as plain text, in each protocol's
 * own place for it, so scripted turns can be routed to one agent of several (fake-llm-server.ts
 * `enqueueFor`). Where the adapters put it: Anthropic `system` (a string or text blocks,
 * anthropic-convert.ts), Chat Completions `system`/`developer` messages (openai-convert.ts), Responses
 * `instructions` or `system`/`developer` input items (openai-responses-convert.ts), Gemini
 * `systemInstruction.parts[].text` (gemini.ts; the REST body may also spell it `system_instruction`).
 */
import type { FakeProtocol } from "./fake-llm-frames.ts";

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

/** The text of a string, or of a list of parts with `text` (text blocks, input_text parts, Gemini parts). */
function textOf(value: unknown): string {
  if (typeof value === "string") return value;
  const parts = Array.isArray(value) ? value : (record(value)?.parts ?? []);
  if (!Array.isArray(parts)) return "";
  return parts
    .map((part) => {
      const text = record(part)?.text;
      return typeof text === "string" ? text : "";
    })
    .join("\n");
}

/** The `system` and `developer` messages of a list of chat messages or Responses input items. */
function systemMessages(list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((item) => {
    const message = record(item);
    return message && (message.role === "system" || message.role === "developer")
      ? [textOf(message.content)]
      : [];
  });
}

/** The request's system prompt ("" when it has none). */
export function systemPromptOf(protocol: FakeProtocol, body: unknown): string {
  const json = record(body);
  if (!json) return "";
  switch (protocol) {
    case "anthropic":
      return textOf(json.system);
    case "openai":
      return systemMessages(json.messages).join("\n");
    case "openai-responses":
      return [textOf(json.instructions), ...systemMessages(json.input)].join("\n");
    case "gemini":
      return textOf(json.systemInstruction ?? json.system_instruction);
  }
}
