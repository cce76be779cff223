/**
 * The recorded real exchanges of test/fixtures/conformance/recorded-exchanges (anthropic, gemini, openai-chat,
 * openai-compatible; openai-responses has its own test): each recorded response is served by the fake
 * server in its protocol's framing, through the official SDK and our adapter, and must normalize to the
 * result its README documents. For two-turn recordings, the request our adapter builds for turn 2 must
 * carry back what the recorded client sent (thinking blocks with their signatures, thought signatures,
 * tool calls). Data copied from pydantic/pydantic-ai (MIT) and vercel/ai (Apache-2.0): see the README.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { AssistantMessage, Message, ProviderKind } from "../../../src/kernel/conversation/messages.ts";
import { assistantText } from "../../../src/kernel/conversation/messages.ts";
import type { StreamEvent } from "../../../src/kernel/conversation/stream.ts";
import type { ToolDefinition } from "../../../src/kernel/conversation/tools.ts";
import { type FakeLlmServer, startFakeLlmServer } from "../../support/fake-llm-server.ts";
import { collect, expectDone, makeRequest, streamFor, toolCalls } from "../harness.ts";
import { readCassette, readChunkLines, recordedTurn, withoutCacheControl } from "../recorded-support.ts";

let server: FakeLlmServer;
beforeAll(async () => {
  server = await startFakeLlmServer();
});
afterAll(async () => {
  await server.close();
});

const NO_ARGS: ToolDefinition = {
  name: "get_user_country",
  description: "",
  parameters: { type: "object", properties: {} },
};

/** One turn through our adapter: the done event and every event. */
async function turn(
  kind: ProviderKind,
  model: string,
  messages: Message[],
  options: { providerName?: string; tools?: ToolDefinition[]; system?: string; send?: boolean } = {},
) {
  const extra = options.providerName ? { name: options.providerName } : {};
  const request = makeRequest(kind, model, messages, {
    tools: options.tools ?? [],
    system: options.system ?? "",
  });
  const result = await collect(streamFor(server, kind, extra)(request));
  return { done: expectDone(result), events: result.events, body: server.requests.at(-1)?.body };
}

function reasoningOf(message: AssistantMessage) {
  return message.parts.filter((p) => p.type === "reasoning");
}

function warnings(events: StreamEvent[]) {
  return events.filter((e) => e.type === "warning");
}

describe("anthropic recordings", () => {
  test("fable-5-1: a thinking block whose prefix changed is dropped and reported as a warning", async () => {
    const [first, second] = readCassette("anthropic/fable-5-1-thinking-dropped-prefix-mismatch.vcr.yaml");
    if (!first || !second) throw new Error("cassette has two exchanges");
    server.enqueue(recordedTurn("anthropic", first), recordedTurn("anthropic", second));
    const question: Message = { role: "user", content: "Think about it, then say what 17*23 is." };

    const t1 = await turn("anthropic", "claude-fable-5-1", [question], {
      system: "You are a helpful assistant. Answer briefly.",
    });
    expect(t1.done.stopReason).toBe("end");
    expect(assistantText(t1.done.message)).toEndWith("**391**.");
    const [thinking] = reasoningOf(t1.done.message);
    expect(thinking).toMatchObject({ text: "", provider: "anthropic" });
    expect(thinking?.type === "reasoning" && thinking.signature?.startsWith("CAQS")).toBe(true);
    expect(t1.done.usage).toMatchObject({ inputTokens: 41, outputTokens: 67, reasoningTokens: 30 });
    // Adaptive thinking with drop_block, on the beta surface, as the recorded client asked.
    expect(t1.body).toMatchObject({
      thinking: { type: "adaptive", block_binding: { prefix_mismatch_behavior: "drop_block" } },
    });

    const t2 = await turn(
      "anthropic",
      "claude-fable-5-1",
      [question, t1.done.message, { role: "user", content: "And times two?" }],
      { system: "You are a helpful assistant. Answer briefly. Today is 2026-09-01." },
    );
    const sent = (t2.body as { messages: unknown[] }).messages;
    expect(withoutCacheControl(sent[1])).toEqual((second.request.messages as unknown[])[1]);
    expect(assistantText(t2.done.message)).toBe("391 × 2 = **782**.");
    expect(t2.done.rawStopReason).toBe("end_turn");
    expect(t2.done.usage).toMatchObject({ inputTokens: 95, outputTokens: 13 });
    const [warning] = warnings(t2.events);
    expect(warning).toMatchObject({ type: "warning", code: "thinking_dropped" });
    expect(warning?.type === "warning" && warning.message).toContain(
      "messages.1.content.0 (prefix_binding_mismatch)",
    );
  });

  test("sonnet-5: summarized adaptive thinking with its signature, then text", async () => {
    server.enqueue({
      protocol: "anthropic",
      rawEvents: readChunkLines("anthropic/sonnet-5-adaptive-thinking-summarized.chunks.txt"),
    });
    const { done } = await turn("anthropic", "claude-sonnet-5", [{ role: "user", content: "gcd" }]);
    const [thinking] = reasoningOf(done.message);
    expect(thinking?.text).toStartWith("I'm working through the Euclidean algorithm");
    expect(thinking?.type === "reasoning" && (thinking.signature ?? "").length).toBeGreaterThan(10);
    expect(assistantText(done.message)).toStartWith("# Finding GCD(1071, 462)");
    expect(done.rawStopReason).toBe("end_turn");
    expect(done.usage).toMatchObject({ inputTokens: 47, outputTokens: 373, reasoningTokens: 62 });
  });

  test("sonnet-4-5 web search: pause_turn is a pause, never the answer; the re-sent turn ends", async () => {
    const [first, second] = readCassette("anthropic/sonnet-4-5-pause-turn-web-search.vcr.yaml");
    if (!first || !second) throw new Error("cassette has two exchanges");
    server.enqueue(recordedTurn("anthropic", first), recordedTurn("anthropic", second));
    const ask: Message = { role: "user", content: "Run a series of web searches" };
    const t1 = await turn("anthropic", "recorded-sonnet-4-5", [ask]);
    expect(t1.done.rawStopReason).toBe("pause_turn");
    expect(t1.done.stopReason).toBe("pause");
    expect(reasoningOf(t1.done.message)).toHaveLength(1);

    const t2 = await turn("anthropic", "recorded-sonnet-4-5", [ask, t1.done.message]);
    // The thinking block goes back unchanged, as the recorded client sent it.
    const recordedThinking = ((second.request.messages as { content: unknown[] }[])[1]?.content ?? [])[0];
    const sentThinking = ((t2.body as { messages: { content: unknown[] }[] }).messages[1]?.content ?? [])[0];
    expect(withoutCacheControl(sentThinking)).toEqual(recordedThinking);
    expect(t2.done.rawStopReason).toBe("end_turn");
    expect(t2.done.stopReason).toBe("end");
  });

  test("sonnet-4: thinking deltas (one empty) before the signature, then text", async () => {
    const [only] = readCassette("anthropic/sonnet-4-thinking-stream.vcr.yaml");
    if (!only) throw new Error("cassette has one exchange");
    server.enqueue(recordedTurn("anthropic", only));
    const { done } = await turn("anthropic", "claude-sonnet-4-0", [{ role: "user", content: "safety" }]);
    const [thinking] = reasoningOf(done.message);
    expect(thinking?.text).toStartWith("This is a straightforward question about pedestrian safety");
    expect(thinking?.type === "reasoning" && (thinking.signature ?? "").length).toBeGreaterThan(10);
    expect(assistantText(done.message)).toStartWith("Here are the basic steps");
    expect(done.stopReason).toBe("end");
    expect(done.usage).toMatchObject({ inputTokens: 43, outputTokens: 282 });
  });

  test("sonnet-4 tool use: the thinking block goes back with the tool result, exactly", async () => {
    const [first, second] = readCassette("anthropic/sonnet-4-thinking-tool-use-roundtrip.vcr.yaml");
    if (!first || !second) throw new Error("cassette has two exchanges");
    server.enqueue(recordedTurn("anthropic", first), recordedTurn("anthropic", second));
    const ask: Message = { role: "user", content: "What is the largest city in the user country?" };
    const t1 = await turn("anthropic", "claude-sonnet-4-0", [ask], { tools: [NO_ARGS] });
    expect(assistantText(t1.done.message)).toStartWith("I'll help you find");
    const [call] = toolCalls(t1.done.message);
    expect(call).toMatchObject({ name: "get_user_country", arguments: {} });
    expect(t1.done.stopReason).toBe("tool_calls");
    expect(t1.done.usage).toMatchObject({ inputTokens: 398, outputTokens: 155 });

    const result: Message = {
      role: "tool",
      toolCallId: call?.id ?? "",
      toolName: "get_user_country",
      content: "Mexico",
      isError: false,
    };
    const t2 = await turn("anthropic", "claude-sonnet-4-0", [ask, t1.done.message, result], {
      tools: [NO_ARGS],
    });
    const sent = (t2.body as { messages: unknown[] }).messages;
    expect(withoutCacheControl(sent[1])).toEqual((second.request.messages as unknown[])[1]);
    expect(assistantText(t2.done.message)).toStartWith("Based on the information that you're from Mexico");
    expect(t2.done.stopReason).toBe("end");
    expect(t2.done.usage).toMatchObject({ inputTokens: 566, outputTokens: 126 });
  });
});

describe("gemini recordings", () => {
  test("gemini-3-pro tool call: the thought signature goes back with its call (the fake refuses it otherwise)", async () => {
    const [first, second] = readCassette(
      "gemini/gemini-3-pro-preview-tool-call-thought-signature-2turn.vcr.yaml",
    );
    if (!first || !second) throw new Error("cassette has two exchanges");
    server.enqueue(recordedTurn("gemini", first), recordedTurn("gemini", second));
    const ask: Message = { role: "user", content: "What is the capital of the user country? Call the tool" };
    const tool = { ...NO_ARGS, name: "get_country" };
    const t1 = await turn("gemini", "gemini-3-pro-preview", [ask], { tools: [tool] });
    const [call] = toolCalls(t1.done.message);
    expect(call).toMatchObject({ name: "get_country", arguments: {} });
    expect(call?.signature).toStartWith("EpwICpkIAXLI2nx");
    expect(t1.done.rawStopReason).toBe("STOP");
    expect(t1.done.usage).toMatchObject({ inputTokens: 29, outputTokens: 10 + 202, reasoningTokens: 202 });

    const result: Message = {
      role: "tool",
      toolCallId: call?.id ?? "",
      toolName: "get_country",
      content: "Mexico",
      isError: false,
    };
    const t2 = await turn("gemini", "gemini-3-pro-preview", [ask, t1.done.message, result], {
      tools: [tool],
    });
    const [sentCall] =
      (t2.body as { contents: { parts: Record<string, unknown>[] }[] }).contents[1]?.parts ?? [];
    const [recordedCall] =
      (second.request.contents as { parts: Record<string, unknown>[] }[])[1]?.parts ?? [];
    expect(sentCall?.functionCall).toMatchObject({ name: "get_country", args: {} });
    // Sent back exactly as received; the recorded (Python) client re-encoded the same bytes URL-safe.
    expect(sentCall?.thoughtSignature).toBe(call?.signature);
    const bytes = (s: unknown) => Buffer.from(String(s), "base64");
    expect(bytes(sentCall?.thoughtSignature).equals(bytes(recordedCall?.thoughtSignature))).toBe(true);
    expect(assistantText(t2.done.message)).toBe("The capital of Mexico is Mexico City.");
  });

  test("gemini-3-pro reasoning: the signature stays on the text; thoughts are billed output", async () => {
    server.enqueue({
      protocol: "gemini",
      rawEvents: readChunkLines("gemini/gemini-3-pro-reasoning.chunks.txt"),
    });
    const { done } = await turn("gemini", "gemini-3-pro-preview", [
      { role: "user", content: "r in strawberry" },
    ]);
    expect(assistantText(done.message)).toStartWith('There are **3** "r"s in strawberry.');
    const signed = done.message.parts.filter((p) => p.type === "text" && p.signature);
    expect(signed).toHaveLength(1);
    expect(done.usage).toMatchObject({ outputTokens: 23 + 302, reasoningTokens: 302 });
    // The signature came on a trailing empty text part, and goes back on one, unchanged.
    const signature = signed[0]?.type === "text" ? signed[0].signature : undefined;
    server.enqueue({ text: "ok" });
    const next = await turn("gemini", "gemini-3-pro-preview", [
      { role: "user", content: "r in strawberry" },
      done.message,
      { role: "user", content: "and in raspberry?" },
    ]);
    const model = (next.body as { contents: { role: string; parts: Record<string, unknown>[] }[] })
      .contents[1];
    expect(model?.parts.at(-1)).toEqual({ text: "", thoughtSignature: signature });
    expect(model?.parts.slice(0, -1).every((p) => p.thoughtSignature === undefined)).toBe(true);
  });
});

describe("openai chat recordings", () => {
  test("gpt-4o-mini tool call: fragments joined by index; turn 2 sends the call and its result back", async () => {
    const [first, second] = readCassette("openai-chat/gpt-4o-mini-tool-call-2turn.vcr.yaml");
    if (!first || !second) throw new Error("cassette has two exchanges");
    server.enqueue(recordedTurn("openai", first), recordedTurn("openai", second));
    const ask: Message = {
      role: "user",
      content: "What is the capital of the UK? Use the tool, then answer.",
    };
    const tool: ToolDefinition = {
      name: "get_capital",
      description: "",
      parameters: { type: "object", properties: { country: { type: "string" } }, required: ["country"] },
    };
    // A provider name other than "openai": the Chat Completions path whatever serves official models.
    const options = { tools: [tool], providerName: "openai-chat" };
    const t1 = await turn("openai", "gpt-4o-mini", [ask], options);
    const [call] = toolCalls(t1.done.message);
    expect(call).toMatchObject({
      id: "call_ZR5UUuTt3pf61kjwAJIYdVMj",
      name: "get_capital",
      arguments: { country: "UK" },
    });
    expect(t1.done.rawStopReason).toBe("tool_calls");
    expect(t1.done.usage).toMatchObject({ inputTokens: 53, outputTokens: 15 });

    const result: Message = {
      role: "tool",
      toolCallId: call?.id ?? "",
      toolName: "get_capital",
      content: "London",
      isError: false,
    };
    const t2 = await turn("openai", "gpt-4o-mini", [ask, t1.done.message, result], options);
    const sent = (t2.body as { messages: unknown[] }).messages;
    const recorded = second.request.messages as unknown[];
    expect(sent.slice(1)).toEqual(recorded.slice(1));
    expect(assistantText(t2.done.message)).toBe("The capital of the UK is London.");
    expect(t2.done.usage).toMatchObject({ inputTokens: 78, outputTokens: 9 });
  });
});

describe("openai-compatible recordings", () => {
  const lines = () =>
    readChunkLines("openai-compatible/deepseek-reasoner-reasoning-content-tool-call.chunks.txt");

  test("deepseek-reasoner: reasoning_content is reasoning, cached input is counted once", async () => {
    server.enqueue({ protocol: "openai", rawEvents: lines() });
    const { done } = await turn("openai", "deepseek-reasoner", [{ role: "user", content: "weather" }], {
      providerName: "deepseek",
    });
    const [thinking] = reasoningOf(done.message);
    expect(thinking?.text).toStartWith("The user is asking for the weather in San Francisco");
    expect(assistantText(done.message)).toBe("");
    expect(toolCalls(done.message).map((c) => ({ name: c.name, arguments: c.arguments }))).toEqual([
      { name: "weather", arguments: { location: "San Francisco" } },
    ]);
    expect(done.stopReason).toBe("tool_calls");
    expect(done.usage).toMatchObject({
      inputTokens: 19,
      cacheReadTokens: 320,
      outputTokens: 83,
      reasoningTokens: 39,
    });
  });

  test("with send_reasoning_content the assistant turn carries its reasoning back; without, it does not", async () => {
    server.enqueue({ protocol: "openai", rawEvents: lines() });
    const ask: Message = { role: "user", content: "weather" };
    const { done } = await turn("openai", "deepseek-reasoner", [ask], { providerName: "deepseek" });
    const [call] = toolCalls(done.message);
    const history: Message[] = [
      ask,
      done.message,
      { role: "tool", toolCallId: call?.id ?? "", toolName: "weather", content: "sunny", isError: false },
    ];
    const reasoning = reasoningOf(done.message)[0]?.text ?? "";

    server.enqueue({ protocol: "openai", text: "Sunny." });
    const stream = streamFor(server, "openai", { name: "deepseek", sendReasoningContent: true });
    expectDone(await collect(stream(makeRequest("openai", "deepseek-reasoner", history, { tools: [] }))));
    const lastMessages = () =>
      (server.requests.at(-1)?.body as { messages?: Record<string, unknown>[] } | undefined)?.messages ?? [];
    const withFlag = lastMessages();
    expect(withFlag.find((m) => m.role === "assistant")?.reasoning_content).toBe(reasoning);

    server.enqueue({ protocol: "openai", text: "Sunny." });
    await turn("openai", "deepseek-reasoner", history, { providerName: "deepseek" });
    const without = lastMessages();
    expect(without.find((m) => m.role === "assistant")).not.toHaveProperty("reasoning_content");
  });
});
