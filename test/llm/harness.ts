/** Shared helpers for the provider-layer tests: requests, protocol table, event collection. */
import type { AssistantMessage, Message, ProviderKind } from "../../src/kernel/conversation/messages.ts";
import type { ModelRequest, StreamEvent, TerminalEvent } from "../../src/kernel/conversation/stream.ts";
import type { ToolDefinition } from "../../src/kernel/conversation/tools.ts";
import { createProviderStream, type ProviderConfig } from "../../src/llm/providers.ts";
import type { FakeLlmServer } from "../support/fake-llm-server.ts";

export const PROTOCOLS: { kind: ProviderKind; model: string }[] = [
  { kind: "anthropic", model: "claude-haiku-4-5" },
  { kind: "openai", model: "gpt-5-mini" },
  { kind: "gemini", model: "gemini-2.5-flash" },
];

export const TEST_KEYS: Record<ProviderKind, string> = {
  anthropic: "sk-ant-test-key-0123456789",
  openai: "sk-test-key-0123456789abcdef",
  gemini: "AIzaTestKey0123456789abcdefghijklmnopq",
};

/** The provider config pointing `kind` at the fake server. The shared protocol tests speak Chat
 * Completions for `openai` (an OpenAI-compatible server); pass `{ compatible: false }` for the official
 * endpoint's Responses path (test/llm/adapters/openai-responses.test.ts). */
export function configFor(
  server: FakeLlmServer,
  kind: ProviderKind,
  extra: Partial<ProviderConfig> = {},
): ProviderConfig {
  const baseUrl =
    kind === "anthropic"
      ? server.anthropicBaseUrl
      : kind === "openai"
        ? server.openaiBaseUrl
        : server.geminiBaseUrl;
  const compatible = kind === "openai" ? { compatible: true } : {};
  return { kind, name: kind, apiKey: TEST_KEYS[kind], baseUrl, ...compatible, ...extra };
}

export const READ_FILE: ToolDefinition = {
  name: "read_file",
  description: "Read a file",
  parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
};

export function makeRequest(
  kind: ProviderKind,
  model: string,
  messages: Message[],
  extra: Partial<ModelRequest> = {},
): ModelRequest {
  return {
    model: { provider: kind, providerName: kind, id: model },
    system: "You are a test.",
    messages,
    tools: [READ_FILE],
    ...extra,
  };
}

export interface Collected {
  events: StreamEvent[];
  terminal: TerminalEvent;
  /** Concatenated text_delta values. */
  text: string;
}

/** The same stream, calling `onEvent` with each event as it passes. */
export async function* tap(
  stream: AsyncIterable<StreamEvent>,
  onEvent: (event: StreamEvent) => void,
): AsyncGenerator<StreamEvent> {
  for await (const event of stream) {
    onEvent(event);
    yield event;
  }
}

/** Reads a whole stream; fails when it does not end with exactly one terminal event. */
export async function collect(stream: AsyncIterable<StreamEvent>): Promise<Collected> {
  const events: StreamEvent[] = [];
  for await (const event of stream) events.push(event);
  const terminals = events.filter((e): e is TerminalEvent => e.type === "done" || e.type === "error");
  if (terminals.length !== 1) throw new Error(`expected one terminal event, got ${terminals.length}`);
  const terminal = terminals[0] as TerminalEvent;
  if (events.at(-1) !== terminal) throw new Error("the terminal event is not the last event");
  let text = "";
  for (const e of events) if (e.type === "text_delta") text += e.delta;
  return { events, terminal, text };
}

/** The done event, or a test failure naming the error. */
export function expectDone(result: Collected): Extract<StreamEvent, { type: "done" }> {
  if (result.terminal.type !== "done") throw new Error(`stream failed: ${result.terminal.error.message}`);
  return result.terminal;
}

export function expectError(result: Collected): Extract<StreamEvent, { type: "error" }> {
  if (result.terminal.type !== "error") throw new Error("expected the stream to fail, but it finished");
  return result.terminal;
}

export function toolCalls(message: AssistantMessage) {
  return message.parts.filter((p) => p.type === "tool_call");
}

export function streamFor(server: FakeLlmServer, kind: ProviderKind, extra: Partial<ProviderConfig> = {}) {
  return createProviderStream(configFor(server, kind, extra));
}
