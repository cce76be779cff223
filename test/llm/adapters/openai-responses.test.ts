/**
 * The OpenAI Responses adapter against the fake server (real `openai` SDK): the request it builds, what it
 * keeps of each output item, every ending (completed, tool calls, refusal, incomplete, stream errors),
 * usage, and the fake server's OpenAI rules (a Chat Completions request with tools is refused for every
 * tier's model, so switching the adapter back would fail).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Message, ReasoningEffort } from "../../../src/kernel/index.ts";
import { DEFAULT_TIER_MODELS, TIERS } from "../../../src/llm/resolve.ts";
import { withRetry } from "../../../src/llm/retry.ts";
import { fakeEncryptedContent } from "../../support/fake-frames-responses.ts";
import { type FakeLlmServer, startFakeLlmServer } from "../../support/fake-llm-server.ts";
import { collect, expectDone, expectError, makeRequest, streamFor, toolCalls } from "../harness.ts";

let server: FakeLlmServer;
beforeAll(async () => {
  server = await startFakeLlmServer();
});
afterAll(async () => {
  await server.close();
});

const R = "openai-responses" as const;
const responses = () => streamFor(server, "openai", { compatible: false });
const hi: Message[] = [{ role: "user", content: "hi" }];

async function sendOne(model: string, extra: Parameters<typeof makeRequest>[3] = {}) {
  const before = server.requests.length;
  server.enqueue({ protocol: R, text: "ok" });
  const result = await collect(responses()(makeRequest("openai", model, hi, extra)));
  return { result, body: server.requests[before]?.body as Record<string, unknown> };
}

describe("the request", () => {
  test("stateless, instructions, input items, function tools with strict: false, max_output_tokens", async () => {
    const { result, body } = await sendOne("gpt-6-luna", { maxOutputTokens: 999 });
    expectDone(result);
    expect(body).toMatchObject({
      model: "gpt-6-luna",
      instructions: "You are a test.",
      input: [{ role: "user", content: "hi" }],
      store: false,
      include: ["reasoning.encrypted_content"],
      stream: true,
      max_output_tokens: 999,
      tools: [{ type: "function", name: "read_file", strict: false }],
    });
    // No effort asked: none sent; the summary is asked for, so reasoning shows as progress.
    expect(body.reasoning).toEqual({ summary: "auto" });
    expect(body.temperature).toBeUndefined();
  });

  const efforts: [string, ReasoningEffort, string][] = [
    ["gpt-6-astra", "none", "low"],
    ["gpt-6.1-sol", "minimal", "low"],
    ["gpt-6-astra", "max", "max"],
    ["gpt-6-luna", "none", "none"],
  ];
  test.each(efforts)(
    "%s asked for %s is sent %s (never a value the model refuses)",
    async (model, asked, sent) => {
      const { result, body } = await sendOne(model, { reasoningEffort: asked });
      expectDone(result);
      expect(body.reasoning).toEqual({ effort: sent, summary: "auto" });
    },
  );

  test("temperature only when the effort is none", async () => {
    const withNone = await sendOne("gpt-6-luna", { reasoningEffort: "none", temperature: 0.2 });
    expect(withNone.body.temperature).toBe(0.2);
    const reasoning = await sendOne("gpt-6-luna", { reasoningEffort: "high", temperature: 0.2 });
    expectDone(reasoning.result);
    expect(reasoning.body.temperature).toBeUndefined();
    const byDefault = await sendOne("gpt-6-astra", { temperature: 0.2 });
    expect(byDefault.body.temperature).toBeUndefined();
  });
});

describe("output items", () => {
  test("reasoning (the .done encrypted content), a commentary message and a call are kept and sent back", async () => {
    server.enqueue(
      {
        protocol: R,
        reasoning: ["thinking ", "hard"],
        text: ["Let me ", "look."],
        toolCalls: [{ name: "read_file", args: { path: "a.txt" }, fragments: 3 }],
        usage: { input: 20, output: 9, reasoning: 4 },
      },
      { protocol: R, text: "It says hi." },
    );
    const first = expectDone(await collect(responses()(makeRequest("openai", "gpt-6-luna", hi))));
    expect(first.stopReason).toBe("tool_calls");
    const [reasoning, text, call] = first.message.parts;
    expect(reasoning).toMatchObject({ type: "reasoning", text: "thinking hard", provider: "openai" });
    const itemId = reasoning?.type === "reasoning" ? reasoning.itemId : undefined;
    expect(itemId).toStartWith("rs_fake_");
    // `.added` carried a prefix; the kept value is the complete one from `.done`.
    expect(reasoning?.type === "reasoning" && reasoning.signature).toBe(fakeEncryptedContent(itemId ?? ""));
    expect(text).toMatchObject({ type: "text", text: "Let me look.", phase: "commentary" });
    expect(call).toMatchObject({ type: "tool_call", name: "read_file", arguments: { path: "a.txt" } });
    expect(call?.type === "tool_call" && call.itemId).toStartWith("fc_fake_");
    expect(first.usage).toMatchObject({ inputTokens: 20, outputTokens: 9, reasoningTokens: 4 });

    const callId = toolCalls(first.message)[0]?.id ?? "";
    const before = server.requests.length;
    const history: Message[] = [
      ...hi,
      first.message,
      { role: "tool", toolCallId: callId, toolName: "read_file", content: "hi", isError: false },
    ];
    const second = expectDone(await collect(responses()(makeRequest("openai", "gpt-6-luna", history))));
    expect(second.message.parts).toMatchObject([
      { type: "text", text: "It says hi.", phase: "final_answer" },
    ]);
    const input = (server.requests[before]?.body as { input?: unknown[] } | undefined)?.input;
    expect(input).toEqual([
      { role: "user", content: "hi" },
      {
        type: "reasoning",
        id: itemId,
        encrypted_content: fakeEncryptedContent(itemId ?? ""),
        summary: [{ type: "summary_text", text: "thinking hard" }],
      },
      expect.objectContaining({
        type: "message",
        role: "assistant",
        phase: "commentary",
        status: "completed",
      }),
      expect.objectContaining({
        type: "function_call",
        call_id: callId,
        name: "read_file",
        arguments: '{"path":"a.txt"}',
      }),
      { type: "function_call_output", call_id: callId, output: "hi" },
    ]);
  });

  test("reasoning from another provider (no item id or content) is not sent: no 404 from a stateless request", async () => {
    const history: Message[] = [
      ...hi,
      {
        role: "assistant",
        parts: [
          { type: "reasoning", text: "x", signature: "sig", provider: "anthropic" },
          { type: "text", text: "earlier" },
        ],
      },
      { role: "user", content: "again" },
    ];
    const before = server.requests.length;
    server.enqueue({ protocol: R, text: "fine" });
    expectDone(await collect(responses()(makeRequest("openai", "gpt-6-luna", history))));
    const input = (server.requests[before]?.body as { input?: unknown[] } | undefined)?.input;
    expect(input).toEqual([
      { role: "user", content: "hi" },
      { role: "assistant", content: "earlier" },
      { role: "user", content: "again" },
    ]);
  });

  test("cached reads and cache writes come out of the base-rate input", async () => {
    server.enqueue({
      protocol: R,
      text: "ok",
      usage: { input: 100, cacheRead: 300, cacheWrite: 50, output: 7, reasoning: 2 },
    });
    const done = expectDone(await collect(responses()(makeRequest("openai", "gpt-6-luna", hi))));
    expect(done.usage).toEqual({
      inputTokens: 100,
      cacheReadTokens: 300,
      cacheWriteTokens: 50,
      outputTokens: 7,
      reasoningTokens: 2,
    });
  });
});

describe("endings", () => {
  test("a refusal part ends as refusal, its text kept", async () => {
    server.enqueue({ protocol: R, refusal: "I can't help with that." });
    const done = expectDone(await collect(responses()(makeRequest("openai", "gpt-6-luna", hi))));
    expect(done.stopReason).toBe("refusal");
    expect(done.message.parts).toMatchObject([{ type: "text", text: "I can't help with that." }]);
  });

  test("response.incomplete for max_output_tokens ends as max_tokens with the partial text", async () => {
    server.enqueue({ protocol: R, text: "half an ans", stopReason: "max_output_tokens" });
    const done = expectDone(await collect(responses()(makeRequest("openai", "gpt-6-luna", hi))));
    expect(done.stopReason).toBe("max_tokens");
    expect(done.rawStopReason).toBe("max_output_tokens");
    expect(done.message.parts).toMatchObject([{ type: "text", text: "half an ans" }]);
  });

  test("an error event with server_error is a server error and is retried", async () => {
    server.enqueue(
      { protocol: R, streamError: { code: "server_error", message: "The server had an error" } },
      { protocol: R, text: "recovered" },
    );
    const kinds: string[] = [];
    const stream = withRetry(responses(), {
      sleep: async () => {},
      onNotice: (n) => kinds.push(n.error.kind),
    });
    const done = expectDone(await collect(stream(makeRequest("openai", "gpt-6-luna", hi))));
    expect(done.message.parts).toMatchObject([{ type: "text", text: "recovered" }]);
    expect(kinds).toEqual(["server"]);
  });

  test("insufficient_quota inside the stream is a quota error", async () => {
    server.enqueue({
      protocol: R,
      streamError: { code: "insufficient_quota", message: "You exceeded your current quota" },
    });
    const error = expectError(await collect(responses()(makeRequest("openai", "gpt-6-luna", hi))));
    expect(error.error.kind).toBe("quota");
  });
});

describe("the fake server refuses what the real API refuses", () => {
  test.each(TIERS.map((tier) => [tier, DEFAULT_TIER_MODELS[tier].openai[0] ?? ""]))(
    "%s (%s): Chat Completions with function tools gets the real 400; Responses serves it",
    async (_tier, model) => {
      const chat = expectError(await collect(streamFor(server, "openai")(makeRequest("openai", model, hi))));
      // The refusal is a model that cannot serve this request, so a tier falls back from it.
      expect(chat.error).toMatchObject({ kind: "model_unsupported", status: 400 });
      expect(chat.error.message).toContain(
        `Function tools with reasoning_effort are not supported for ${model} in /v1/chat/completions. To use function tools, use /v1/responses or set reasoning_effort to 'none'.`,
      );
      server.enqueue({ protocol: R, text: "served" });
      expectDone(await collect(responses()(makeRequest("openai", model, hi))));
    },
  );

  test("effort none is refused where the model has no none (gpt-6-astra), with the real text", async () => {
    const response = await fetch(`${server.openaiBaseUrl}/responses`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        model: "gpt-6-astra",
        store: false,
        input: "hi",
        reasoning: { effort: "none" },
      }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
      "Unsupported value: 'reasoning.effort' does not support 'none' with this model. Supported values are: 'low', 'medium', 'high', 'xhigh', and 'max'.",
    );
  });

  test("Chat Completions with effort none on a model that has none is served", async () => {
    server.enqueue({ protocol: "openai", text: "served" });
    const before = server.requests.length;
    const response = await fetch(`${server.openaiBaseUrl}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        model: "gpt-6-luna",
        reasoning_effort: "none",
        messages: hi,
        tools: [{ type: "function", function: { name: "f" } }],
        stream: true,
      }),
    });
    expect(response.status).toBe(200);
    await response.text();
    expect(server.requests.length - before).toBe(1);
  });

  test("a stateless request replaying a reasoning item without its encrypted content gets the real 404", async () => {
    const response = await fetch(`${server.openaiBaseUrl}/responses`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        model: "gpt-6-luna",
        store: false,
        input: [{ type: "reasoning", id: "rs_123", summary: [] }],
      }),
    });
    expect(response.status).toBe(404);
    const body = (await response.json()) as { error: { message: string } };
    expect(body.error.message).toBe(
      "Item with id 'rs_123' not found. Items are not persisted when `store` is set to false. Try again with `store` set to true, or remove this item from your input.",
    );
  });

  test("temperature with reasoning on a GPT-6 model is refused", async () => {
    const response = await fetch(`${server.openaiBaseUrl}/responses`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "gpt-6-astra", store: false, input: "hi", temperature: 0.5 }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
      "Unsupported parameter: 'temperature' is not supported with this model.",
    );
  });
});
