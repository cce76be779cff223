/**
 * The fake server refuses what the real Anthropic and Gemini APIs refuse (test/support/fake-rules-*.ts),
 * with the real status and text, without consuming a scripted turn; and it serves what they serve.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { AssistantMessage, Message } from "../../../src/kernel/conversation/messages.ts";
import { type FakeLlmServer, startFakeLlmServer } from "../../support/fake-llm-server.ts";
import { collect, expectDone, expectError, makeRequest, streamFor } from "../harness.ts";

let server: FakeLlmServer;
beforeAll(async () => {
  server = await startFakeLlmServer();
});
afterAll(async () => {
  await server.close();
});

async function post(path: string, body: unknown) {
  const response = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

describe("gemini 3 thought signatures", () => {
  const contents = (signature?: string) => [
    { role: "user", parts: [{ text: "read a" }] },
    {
      role: "model",
      parts: [
        {
          functionCall: { name: "read_file", args: { path: "a" } },
          ...(signature ? { thoughtSignature: signature } : {}),
        },
      ],
    },
    { role: "user", parts: [{ functionResponse: { name: "read_file", response: { output: "A" } } }] },
  ];

  test("a function call of the current turn without its signature gets the real 400, and no turn is used", async () => {
    server.enqueue({ text: "kept for the next request" });
    const refused = await post("/v1beta/models/gemini-3.8-flash:streamGenerateContent", {
      contents: contents(),
    });
    expect(refused.status).toBe(400);
    const error = JSON.parse(refused.text).error;
    expect(error.status).toBe("INVALID_ARGUMENT");
    expect(error.message).toBe(
      "Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call `default_api:read_file` , position 2. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.",
    );
    expect(server.pending()).toBe(1);
    const served = await post("/v1beta/models/gemini-3.8-flash:streamGenerateContent", {
      contents: contents("sig"),
    });
    expect(served.status).toBe(200);
    expect(server.pending()).toBe(0);
  });

  test("earlier turns and pre-3 models are not checked", async () => {
    const older = [
      ...contents(),
      { role: "model", parts: [{ text: "A." }] },
      { role: "user", parts: [{ text: "thanks" }] },
    ];
    server.enqueue({ text: "ok" }, { text: "ok" });
    expect(
      (await post("/v1beta/models/gemini-3.8-flash:streamGenerateContent", { contents: older })).status,
    ).toBe(200);
    expect(
      (await post("/v1beta/models/gemini-2.5-flash:streamGenerateContent", { contents: contents() })).status,
    ).toBe(200);
  });

  test("our adapter passes: the signature goes back with the call", async () => {
    server.enqueue({ toolCalls: [{ name: "read_file", args: { path: "a" } }] }, { text: "done" });
    const stream = streamFor(server, "gemini");
    const ask: Message = { role: "user", content: "read a" };
    const t1 = expectDone(await collect(stream(makeRequest("gemini", "gemini-3.8-flash", [ask]))));
    const call = t1.message.parts.find((p) => p.type === "tool_call");
    const result: Message = {
      role: "tool",
      toolCallId: call?.type === "tool_call" ? call.id : "",
      toolName: "read_file",
      content: "A",
      isError: false,
    };
    expectDone(await collect(stream(makeRequest("gemini", "gemini-3.8-flash", [ask, t1.message, result]))));
  });
});

describe("anthropic thinking bound to its prefix", () => {
  const ask: Message = { role: "user", content: "read a" };
  async function firstTurn(): Promise<AssistantMessage> {
    server.enqueue({ reasoning: "I will read it.", toolCalls: [{ name: "read_file", args: { path: "a" } }] });
    return expectDone(
      await collect(streamFor(server, "anthropic")(makeRequest("anthropic", "claude-sonnet-5-5", [ask]))),
    ).message;
  }
  const resultOf = (message: AssistantMessage, content: string): Message => {
    const call = message.parts.find((p) => p.type === "tool_call");
    return {
      role: "tool",
      toolCallId: call?.type === "tool_call" ? call.id : "",
      toolName: "read_file",
      content,
      isError: false,
    };
  };

  test("unchanged history: the thinking block is accepted and nothing is dropped", async () => {
    const t1 = await firstTurn();
    server.enqueue({ text: "A." });
    const result = await collect(
      streamFor(
        server,
        "anthropic",
      )(makeRequest("anthropic", "claude-sonnet-5-5", [ask, t1, resultOf(t1, "A")])),
    );
    expectDone(result);
    expect(result.events.filter((e) => e.type === "warning")).toEqual([]);
  });

  test("a changed prefix with drop_block (our adapter): served, the block reported dropped", async () => {
    const t1 = await firstTurn();
    server.enqueue({ text: "A." });
    const changed = makeRequest("anthropic", "claude-sonnet-5-5", [ask, t1, resultOf(t1, "A")], {
      system: "Changed.",
    });
    const result = await collect(streamFor(server, "anthropic")(changed));
    expectDone(result);
    const warning = result.events.find((e) => e.type === "warning");
    expect(warning?.type === "warning" && warning.message).toContain(
      "messages.1.content.0 (prefix_binding_mismatch)",
    );
  });

  test("a changed prefix without drop_block: the documented 400", async () => {
    const t1 = await firstTurn();
    const thinking = t1.parts.find((p) => p.type === "reasoning");
    const signature = thinking?.type === "reasoning" ? thinking.signature : "";
    server.enqueue({ text: "unused" });
    const refused = await post("/v1/messages", {
      model: "claude-sonnet-5-5",
      max_tokens: 100,
      system: "Changed.",
      messages: [
        { role: "user", content: [{ type: "text", text: "read a" }] },
        { role: "assistant", content: [{ type: "thinking", thinking: "I will read it.", signature }] },
        { role: "user", content: [{ type: "text", text: "go on" }] },
      ],
    });
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.text).error).toEqual({
      type: "invalid_request_error",
      message:
        'messages.1.content.0: Invalid `signature` in `thinking` block. The block is bound to a different conversation. Remove the block, or set `thinking.block_binding.prefix_mismatch_behavior` to "drop_block".',
    });
    expect(server.pending()).toBe(1);
    expectDone(
      await collect(streamFor(server, "anthropic")(makeRequest("anthropic", "claude-sonnet-5-5", [ask]))),
    );
  });

  test("temperature other than 1 with thinking is refused", async () => {
    const refused = await post("/v1/messages", {
      model: "claude-sonnet-5-5",
      max_tokens: 100,
      thinking: { type: "adaptive" },
      temperature: 0.2,
      messages: [{ role: "user", content: "hi" }],
    });
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.text).error.message).toStartWith(
      "`temperature` may only be set to 1 when thinking is enabled or in adaptive mode.",
    );
    // The adapter never sends temperature to Claude (it would be refused with thinking on).
    server.enqueue({ text: "ok" });
    expectDone(
      await collect(
        streamFor(
          server,
          "anthropic",
        )(makeRequest("anthropic", "claude-sonnet-5-5", [ask], { temperature: 0.2 })),
      ),
    );
    expect(server.requests.at(-1)?.body).not.toHaveProperty("temperature");
  });

  test("a Gemini 3 call that lost its signature fails as a bad request, not a hang", async () => {
    const stream = streamFor(server, "gemini");
    const t1: AssistantMessage = {
      role: "assistant",
      parts: [{ type: "tool_call", id: "c1", name: "read_file", arguments: {} }],
    };
    const result = await collect(
      stream(makeRequest("gemini", "gemini-3.8-flash", [ask, t1, resultOf(t1, "A")])),
    );
    expect(expectError(result).error).toMatchObject({ kind: "bad_request", status: 400 });
  });
});
