/** Multi-turn request conversion, checked in the request bodies the fake server logged. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Message } from "../../../src/kernel/conversation/messages.ts";
import { type FakeLlmServer, startFakeLlmServer } from "../../support/fake-llm-server.ts";
import { collect, expectDone, makeRequest, streamFor } from "../harness.ts";

let server: FakeLlmServer;
beforeAll(async () => {
  server = await startFakeLlmServer();
});
afterAll(async () => {
  await server.close();
});

/** A conversation after one tool round: user, assistant (reasoning + text + two calls), two results. */
function history(provider: "anthropic" | "openai" | "gemini"): Message[] {
  return [
    { role: "user", content: "read a and b" },
    {
      role: "assistant",
      parts: [
        { type: "reasoning", text: "I should read both.", signature: "think-sig", provider },
        { type: "text", text: "Reading." },
        {
          type: "tool_call",
          id: "call_1",
          name: "read_file",
          arguments: { path: "a.txt" },
          signature: "fc-sig-1",
        },
        { type: "tool_call", id: "call_2", name: "read_file", arguments: { path: "b.txt" } },
      ],
    },
    { role: "tool", toolCallId: "call_1", toolName: "read_file", content: "contents of a", isError: false },
    { role: "tool", toolCallId: "call_2", toolName: "read_file", content: "no such file", isError: true },
  ];
}

async function send(
  kind: "anthropic" | "openai" | "gemini",
  model: string,
): Promise<Record<string, unknown>> {
  server.enqueue({ text: "done" });
  const before = server.requests.length;
  expectDone(await collect(streamFor(server, kind)(makeRequest(kind, model, history(kind)))));
  expect(server.requests.length).toBe(before + 1);
  return server.requests.at(-1)?.body as Record<string, unknown>;
}

describe("multi-turn request conversion", () => {
  test("anthropic: grouped tool results, replayed thinking, cache_control on the stable prefix", async () => {
    const body = (await send("anthropic", "claude-haiku-4-5")) as {
      system: Record<string, unknown>[];
      tools: { name: string; cache_control?: unknown }[];
      messages: { role: string; content: Record<string, unknown>[] }[];
    };
    expect(body.system[0]).toEqual({
      type: "text",
      text: "You are a test.",
      cache_control: { type: "ephemeral" },
    });
    expect(body.tools.at(-1)?.cache_control).toEqual({ type: "ephemeral" });
    expect(body.messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    const [, assistant, results] = body.messages;
    expect(assistant?.content[0]).toEqual({
      type: "thinking",
      thinking: "I should read both.",
      signature: "think-sig",
    });
    expect(assistant?.content.filter((b) => b.type === "tool_use").map((b) => b.id)).toEqual([
      "call_1",
      "call_2",
    ]);
    expect(results?.content).toHaveLength(2);
    expect(results?.content[0]).toMatchObject({
      type: "tool_result",
      tool_use_id: "call_1",
      content: "contents of a",
    });
    expect(results?.content[1]).toMatchObject({ type: "tool_result", tool_use_id: "call_2", is_error: true });
    expect(results?.content.at(-1)?.cache_control).toEqual({ type: "ephemeral" });
  });

  test("anthropic: one stream function sending a growing history marks only each request's last block and extends the previous request", async () => {
    const stream = streamFor(server, "anthropic");
    const first = history("anthropic");
    const second: Message[] = [
      ...first,
      {
        role: "assistant",
        parts: [{ type: "tool_call", id: "call_3", name: "read_file", arguments: { path: "c.txt" } }],
      },
      { role: "tool", toolCallId: "call_3", toolName: "read_file", content: "contents of c", isError: false },
    ];
    type Body = { messages: { role: string; content: Record<string, unknown>[] }[] };
    const bodies: Body[] = [];
    for (const messages of [first, second, first]) {
      server.enqueue({ text: "done" });
      expectDone(await collect(stream(makeRequest("anthropic", "claude-haiku-4-5", messages))));
      bodies.push(server.requests.at(-1)?.body as Body);
    }
    const marked = (body: Body | undefined) =>
      (body?.messages ?? []).flatMap((m) => m.content).filter((b) => b.cache_control !== undefined);
    for (const body of bodies) expect(marked(body)).toHaveLength(1);
    // The second request repeats the first one's messages, only the moving cache mark aside.
    const unmarked = (body: Body | undefined) =>
      JSON.stringify(body?.messages, (key, value) => (key === "cache_control" ? undefined : value));
    expect(bodies[1]?.messages).toHaveLength(5);
    expect(JSON.stringify(bodies[1]?.messages.slice(0, 3).map((m) => m.content.length))).toBe("[1,4,2]");
    expect(unmarked({ messages: bodies[1]?.messages.slice(0, 2) ?? [] })).toBe(
      unmarked({ messages: bodies[0]?.messages.slice(0, 2) ?? [] }),
    );
    // Sent again, the shorter history is converted exactly as the first time (the memo kept no merge or mark).
    expect(bodies[2]).toEqual(bodies[0]);
  });

  test("anthropic: a request converted from the previous one's turns equals a fresh conversion (merge into the last turn, an elided copy, a shorter list)", async () => {
    const kept = streamFor(server, "anthropic");
    const first = history("anthropic");
    // A user message after tool results merges into the previous request's last (user) turn.
    const merged: Message[] = [...first, { role: "user", content: "and now c" }];
    // Eliding puts a copy in place of an earlier result: the previous turns must not be reused.
    const elided: Message[] = merged.map((m) =>
      m.role === "tool" && m.toolCallId === "call_1" ? { ...m, content: "[elided]" } : m,
    );
    const grown: Message[] = [
      ...elided,
      { role: "assistant", parts: [{ type: "text", text: "ok" }] },
      { role: "user", content: "next" },
    ];
    for (const messages of [first, merged, elided, grown, first]) {
      const bodies: unknown[] = [];
      for (const stream of [kept, streamFor(server, "anthropic")]) {
        server.enqueue({ text: "done" });
        expectDone(await collect(stream(makeRequest("anthropic", "claude-haiku-4-5", messages))));
        bodies.push(server.requests.at(-1)?.body);
      }
      expect(bodies[0]).toEqual(bodies[1]);
    }
    const last = server.requests.at(-3)?.body as { messages: { content: { text?: string }[] }[] };
    expect(last.messages.at(-1)?.content.map((b) => b.text)).toEqual(["next"]);
  });

  test("anthropic: reasoning from another provider is not replayed", async () => {
    server.enqueue({ text: "done" });
    const messages = history("gemini");
    expectDone(
      await collect(streamFor(server, "anthropic")(makeRequest("anthropic", "claude-haiku-4-5", messages))),
    );
    const body = server.requests.at(-1)?.body as { messages: { content: { type: string }[] }[] };
    expect(body.messages[1]?.content.map((b) => b.type)).toEqual(["text", "tool_use", "tool_use"]);
  });

  test("openai: system first, tool_calls with JSON arguments, one tool message per result, usage requested", async () => {
    const body = (await send("openai", "gpt-5-mini")) as {
      messages: Record<string, unknown>[];
      stream_options: unknown;
      tools: unknown[];
    };
    expect(body.stream_options).toEqual({ include_usage: true });
    expect(body.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "tool"]);
    expect(body.messages[2]).toMatchObject({
      content: "Reading.",
      tool_calls: [
        { id: "call_1", type: "function", function: { name: "read_file", arguments: '{"path":"a.txt"}' } },
        { id: "call_2", type: "function", function: { name: "read_file", arguments: '{"path":"b.txt"}' } },
      ],
    });
    expect(JSON.stringify(body.messages[2])).not.toContain("I should read both.");
    expect(body.messages[3]).toEqual({ role: "tool", tool_call_id: "call_1", content: "contents of a" });
    expect(body.tools).toHaveLength(1);
  });

  test("openai-compatible: the output limit is sent as max_tokens, whatever the instance is named", async () => {
    // Chat Completions serves only OpenAI-compatible servers (official models go over Responses), and
    // those read `max_tokens` (docs.ollama.com/api/openai-compatibility); the harness names this
    // compatible instance "openai", which once switched it to the official `max_completion_tokens`.
    server.enqueue({ text: "done" });
    const request = makeRequest("openai", "llama3.2", history("openai"), { maxOutputTokens: 512 });
    expectDone(await collect(streamFor(server, "openai")(request)));
    const body = server.requests.at(-1)?.body as Record<string, unknown>;
    expect(body.max_tokens).toBe(512);
    expect(body).not.toHaveProperty("max_completion_tokens");
  });

  test("gemini: function responses grouped in one user turn, thought signature sent back on its call", async () => {
    const body = (await send("gemini", "gemini-2.5-flash")) as {
      contents: { role: string; parts: Record<string, unknown>[] }[];
      systemInstruction: { parts: { text: string }[] };
    };
    expect(body.systemInstruction.parts[0]?.text).toBe("You are a test.");
    expect(body.contents.map((c) => c.role)).toEqual(["user", "model", "user"]);
    const model = body.contents[1]?.parts ?? [];
    const call = model.find((p) => (p.functionCall as { name?: string } | undefined)?.name === "read_file");
    expect(call).toMatchObject({
      functionCall: { id: "call_1", name: "read_file", args: { path: "a.txt" } },
      thoughtSignature: "fc-sig-1",
    });
    const results = body.contents[2]?.parts ?? [];
    expect(results).toEqual([
      { functionResponse: { id: "call_1", name: "read_file", response: { output: "contents of a" } } },
      { functionResponse: { id: "call_2", name: "read_file", response: { error: "no such file" } } },
    ]);
  });
});
