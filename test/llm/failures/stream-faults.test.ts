/**
 * Issue 22, from the fault's side, on every wire protocol through the fake server:
 * - a connection reset after a tool call's first argument delta (nothing shown to the user) is retried
 *   and the reply arrives whole, once; a reset after text was shown is final;
 * - a provider that goes silent fails after one idle window: silence is not retried five times.
 */
import { describe, expect, test } from "bun:test";
import type { ProviderKind } from "../../../src/kernel/conversation/messages.ts";
import type { ModelRequest, StreamEvent, StreamFn } from "../../../src/kernel/conversation/stream.ts";
import type { ProviderConfig } from "../../../src/llm/providers.ts";
import { withRetry } from "../../../src/llm/retry.ts";
import { fakeServerPerFile } from "../../support/fake-server-per-file.ts";
import { collect, expectDone, expectError, makeRequest, streamFor, tap, toolCalls } from "../harness.ts";

const server = await fakeServerPerFile();

interface Wire {
  name: string;
  kind: ProviderKind;
  model: string;
  extra: Partial<ProviderConfig>;
  /** Frames the fake sends up to and including the tool call's first argument delta. */
  framesToFirstDelta: number;
}

// Counted from the encoders in test/support (fake-llm-frames.ts, fake-frames-responses.ts).
const WIRES: Wire[] = [
  // message_start, content_block_start (tool_use), input_json_delta
  {
    name: "Anthropic Messages",
    kind: "anthropic",
    model: "claude-haiku-4-5",
    extra: {},
    framesToFirstDelta: 3,
  },
  // response.created, response.in_progress, output_item.added, function_call_arguments.delta
  {
    name: "OpenAI Responses",
    kind: "openai",
    model: "gpt-5-mini",
    extra: { compatible: false },
    framesToFirstDelta: 4,
  },
  // the role chunk, the first tool_calls chunk (name and first argument piece)
  { name: "Chat Completions", kind: "openai", model: "gpt-5-mini", extra: {}, framesToFirstDelta: 2 },
  // the functionCall naming the call, its first partialArgs piece
  { name: "Gemini", kind: "gemini", model: "gemini-2.5-flash", extra: {}, framesToFirstDelta: 2 },
];

/** The provider stream, counting what each attempt delivered before it ended. */
function observed(inner: StreamFn) {
  const attempts: StreamEvent[][] = [];
  const stream: StreamFn = async function* (request: ModelRequest) {
    const seen: StreamEvent[] = [];
    attempts.push(seen);
    for await (const event of inner(request)) {
      seen.push(event);
      yield event;
    }
  };
  return { stream, attempts };
}

const CALL = { name: "read_file", args: { path: "src/some/long/path/name.ts" }, fragments: 4 };

describe.each(WIRES)("$name", (wire) => {
  const ask = () => makeRequest(wire.kind, wire.model, [{ role: "user", content: "read it" }]);

  test("a reset after a tool call's first delta is retried: one whole tool call, 2 requests", async () => {
    const before = server.requests.length;
    server.enqueue({ toolCalls: [CALL], cutAfterEvents: wire.framesToFirstDelta }, { toolCalls: [CALL] });
    const inner = observed(streamFor(server, wire.kind, wire.extra));
    const result = await collect(withRetry(inner.stream, { sleep: async () => {} })(ask()));

    // The fault: the first attempt had begun the tool call and was then cut.
    const first = inner.attempts[0] ?? [];
    expect(first.some((e) => e.type === "tool_call_start" || e.type === "tool_call_delta")).toBe(true);
    expect(first.at(-1)?.type).toBe("error");
    // The caller saw one tool call, once, with its whole arguments.
    const done = expectDone(result);
    expect(toolCalls(done.message)).toHaveLength(1);
    expect(toolCalls(done.message)[0]).toMatchObject({ name: "read_file", arguments: CALL.args });
    expect(result.events.filter((e) => e.type === "tool_call_start")).toHaveLength(1);
    expect(result.events.filter((e) => e.type === "tool_call_end")).toHaveLength(1);
    expect(server.requests.length - before).toBe(2);
  });

  test("a reset after text was shown is still final: no duplicated text", async () => {
    const before = server.requests.length;
    // The connection is dropped once the text sent so far has reached us (an event, not a delay), so the
    // reset is after output whatever the machine's load.
    server.enqueue(
      { text: ["Hello", " world"], toolCalls: [CALL], hangAfterEvents: wire.framesToFirstDelta + 2 },
      { text: "must not be used" },
    );
    let shown = "";
    const result = await collect(
      tap(withRetry(streamFor(server, wire.kind, wire.extra), { sleep: async () => {} })(ask()), (event) => {
        if (event.type === "text_delta") shown += event.delta;
        if (shown === "Hello world") server.dropHanging();
      }),
    );
    expectError(result);
    expect(result.text).toBe("Hello world");
    expect(server.requests.length - before).toBe(1);
  });

  test("a silent provider fails after one idle window, without retrying the silence", async () => {
    const before = server.requests.length;
    server.enqueue({ text: "never", hangAfterEvents: 0 }, { text: "must not be used" });
    const result = await collect(
      withRetry(streamFor(server, wire.kind, { ...wire.extra, idleTimeoutMs: 200 }), {
        sleep: async () => {},
      })(ask()),
    );
    const error = expectError(result).error;
    expect(error.kind).toBe("idle_timeout");
    expect(error.message).toContain("no data for 200 ms");
    expect(server.requests.length - before).toBe(1);
    server.dropHanging();
  });
});
