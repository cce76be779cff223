/** The three adapters, through the official SDKs, against the fake server: streaming, tool calls, usage. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { assistantText } from "../../../src/kernel/conversation/messages.ts";
import { type FakeLlmServer, startFakeLlmServer } from "../../support/fake-llm-server.ts";
import { collect, expectDone, makeRequest, PROTOCOLS, streamFor, toolCalls } from "../harness.ts";

let server: FakeLlmServer;
beforeAll(async () => {
  server = await startFakeLlmServer();
});
afterAll(async () => {
  await server.close();
});

describe.each(PROTOCOLS)("$kind adapter", ({ kind, model }) => {
  const ask = () => makeRequest(kind, model, [{ role: "user", content: "hi" }]);

  test("streams text as start/delta/end and finishes with the whole message", async () => {
    server.enqueue({ text: ["Hel", "lo, ", "world"] });
    const result = await collect(streamFor(server, kind)(ask()));
    const done = expectDone(result);
    expect(
      result.events
        .filter((e) => e.type === "text_delta")
        .map((e) => (e.type === "text_delta" ? e.delta : "")),
    ).toEqual(["Hel", "lo, ", "world"]);
    expect(result.events[0]?.type).toBe("text_start");
    const end = result.events.find((e) => e.type === "text_end");
    expect(end?.type === "text_end" && end.text).toBe("Hello, world");
    expect(assistantText(done.message)).toBe("Hello, world");
    expect(done.stopReason).toBe("end");
    expect(done.model).toBe(model);
  });

  test("assembles a tool call whose arguments arrive in several fragments", async () => {
    const args = { path: "src/some/deeply/nested/file.ts", limit: 20 };
    server.enqueue({ toolCalls: [{ id: "call_frag", name: "read_file", args, fragments: 4 }] });
    const result = await collect(streamFor(server, kind)(ask()));
    const done = expectDone(result);
    expect(result.events.filter((e) => e.type === "tool_call_delta").length).toBeGreaterThan(1);
    const calls = toolCalls(done.message);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ name: "read_file", arguments: args });
    expect(calls[0]?.id).toBe("call_frag");
    const end = result.events.find((e) => e.type === "tool_call_end");
    expect(end?.type === "tool_call_end" && end.call.arguments).toEqual(args);
    expect(done.stopReason).toBe("tool_calls");
  });

  test("keeps two tool calls of one response apart, in order, ids preserved", async () => {
    server.enqueue({
      text: "Reading both.",
      toolCalls: [
        { id: "call_a", name: "read_file", args: { path: "a.txt" }, fragments: 2 },
        { id: "call_b", name: "read_file", args: { path: "b.txt" }, fragments: 3 },
      ],
    });
    const done = expectDone(await collect(streamFor(server, kind)(ask())));
    const calls = toolCalls(done.message);
    expect(calls.map((c) => c.arguments)).toEqual([{ path: "a.txt" }, { path: "b.txt" }]);
    expect(calls.map((c) => c.id)).toEqual(["call_a", "call_b"]);
    expect(assistantText(done.message)).toBe("Reading both.");
  });

  test("reports usage, including cached input tokens", async () => {
    server.enqueue({ text: "ok", usage: { input: 123, output: 45, cacheRead: 67 } });
    const result = await collect(streamFor(server, kind)(ask()));
    const done = expectDone(result);
    expect(done.usage).toMatchObject({ inputTokens: 123, outputTokens: 45, cacheReadTokens: 67 });
    const usage = result.events.find((e) => e.type === "usage");
    expect(usage?.type === "usage" && usage.usage.inputTokens).toBe(123);
  });

  test("keeps reasoning out of the answer text", async () => {
    server.enqueue({ reasoning: ["thinking ", "hard"], text: "answer" });
    const result = await collect(streamFor(server, kind)(ask()));
    const done = expectDone(result);
    expect(result.text).toBe("answer");
    expect(assistantText(done.message)).toBe("answer");
    const reasoning = done.message.parts.find((p) => p.type === "reasoning");
    expect(reasoning?.type === "reasoning" && reasoning.text).toBe("thinking hard");
    expect(result.events.some((e) => e.type === "reasoning_delta")).toBe(true);
  });

  test("argument text that is not JSON yields {} with the raw text and a parse error", async () => {
    if (kind === "gemini") {
      // Gemini sends arguments as objects, never as text; empty arguments must still mean {}.
      server.enqueue({ toolCalls: [{ name: "read_file", args: {} }] });
      const done = expectDone(await collect(streamFor(server, kind)(ask())));
      expect(toolCalls(done.message)[0]?.arguments).toEqual({});
      return;
    }
    server.enqueue({ toolCalls: [{ name: "read_file", args: '{"path": "a.txt"', fragments: 2 }] });
    const done = expectDone(await collect(streamFor(server, kind)(ask())));
    const call = toolCalls(done.message)[0];
    expect(call?.arguments).toEqual({});
    expect(call?.rawArguments).toBe('{"path": "a.txt"');
    expect(call?.parseError).toBeString();
  });
});
