/**
 * OpenAI-compatible servers that number streamed tool calls wrongly: Ollama sends `index: 0` for every
 * parallel call, each with its own id (github.com/ollama/ollama/issues/15457), and older builds sent no
 * `index` at all (issues/7881). Each call must stay a call of its own.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type FakeLlmServer, startFakeLlmServer } from "../../support/fake-llm-server.ts";
import { collect, expectDone, makeRequest, streamFor, toolCalls } from "../harness.ts";

let server: FakeLlmServer;
beforeAll(async () => {
  server = await startFakeLlmServer();
});
afterAll(async () => {
  await server.close();
});

const base = { id: "chatcmpl-1", object: "chat.completion.chunk", created: 1, model: "qwen3-coder" };
const chunk = (delta: unknown, finish: string | null = null) =>
  JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] });

async function calls(lines: string[]) {
  server.enqueue({ protocol: "openai", rawEvents: lines });
  const stream = streamFor(server, "openai", { name: "ollama" });
  const done = expectDone(
    await collect(stream(makeRequest("openai", "qwen3-coder", [{ role: "user", content: "go" }]))),
  );
  return toolCalls(done.message).map((c) => ({ id: c.id, name: c.name, arguments: c.arguments }));
}

describe("streamed tool calls from compatible servers", () => {
  test("parallel calls that reuse index 0 with different ids stay separate", async () => {
    const result = await calls([
      chunk({ role: "assistant", content: "" }),
      chunk({
        tool_calls: [
          {
            index: 0,
            id: "call_a",
            type: "function",
            function: { name: "write_file", arguments: '{"path":' },
          },
        ],
      }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '"hello.py"}' } }] }),
      chunk({
        tool_calls: [
          {
            index: 0,
            id: "call_b",
            type: "function",
            function: { name: "write_file", arguments: '{"path":"world.py"}' },
          },
        ],
      }),
      chunk({}, "tool_calls"),
    ]);
    expect(result).toEqual([
      { id: "call_a", name: "write_file", arguments: { path: "hello.py" } },
      { id: "call_b", name: "write_file", arguments: { path: "world.py" } },
    ]);
  });

  test("calls without an index are placed by their position in the chunk", async () => {
    const result = await calls([
      chunk({
        tool_calls: [
          { id: "call_1", type: "function", function: { name: "read_file", arguments: '{"path":"a"}' } },
          { id: "call_2", type: "function", function: { name: "read_file", arguments: '{"path":"b"}' } },
        ],
      }),
      chunk({}, "tool_calls"),
    ]);
    expect(result.map((c) => c.arguments)).toEqual([{ path: "a" }, { path: "b" }]);
  });

  test("correct indexes with ids only on the first piece are still joined per index", async () => {
    const result = await calls([
      chunk({ tool_calls: [{ index: 0, id: "call_x", function: { name: "grep", arguments: "" } }] }),
      chunk({
        tool_calls: [{ index: 1, id: "call_y", function: { name: "glob", arguments: '{"pattern":"*"}' } }],
      }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"pattern":"x"}' } }] }),
      chunk({}, "tool_calls"),
    ]);
    expect(result).toEqual([
      { id: "call_x", name: "grep", arguments: { pattern: "x" } },
      { id: "call_y", name: "glob", arguments: { pattern: "*" } },
    ]);
  });
});
