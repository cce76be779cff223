import { expect, test } from "bun:test";
import type { ModelRequest, StreamEvent } from "../../src/kernel/index.ts";
import { scriptedProvider } from "../support/scripted-provider.ts";

const request = (system: string, signal?: AbortSignal): ModelRequest => ({
  model: { provider: "anthropic", providerName: "anthropic", id: "m" },
  system,
  messages: [{ role: "user", content: "hi" }],
  tools: [],
  ...(signal ? { signal } : {}),
});

async function collect(stream: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const e of stream) out.push(e);
  return out;
}

test("emits start/delta/end per part and exactly one terminal event; records requests", async () => {
  const p = scriptedProvider({
    agents: { "agent:a;": [{ text: "hello", toolCalls: [{ name: "t", rawArguments: "{bad" }] }] },
  });
  const events = await collect(p.stream(request("agent:a; x")));
  expect(events.map((e) => e.type)).toEqual([
    "text_start",
    "text_delta",
    "text_delta",
    "text_end",
    "tool_call_start",
    "tool_call_delta",
    "tool_call_end",
    "usage",
    "done",
  ]);
  const end = events.find((e) => e.type === "tool_call_end");
  expect(end?.type === "tool_call_end" && end.call).toMatchObject({ arguments: {}, rawArguments: "{bad" });
  expect(end?.type === "tool_call_end" && end.call.parseError).toBeString();
  expect(p.requests.map((r) => r.key)).toEqual(["agent:a;"]);
});

test("a delay honours abort, errors are terminal, and an exhausted script is an error", async () => {
  const p = scriptedProvider({
    queue: [{ text: "slow", delayMs: 5_000 }, { error: { kind: "server", message: "500" } }],
  });
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 20);
  const aborted = await collect(p.stream(request("s", controller.signal)));
  expect(aborted).toEqual([
    expect.objectContaining({ type: "error", error: expect.objectContaining({ kind: "aborted" }) }),
  ]);
  const failed = await collect(p.stream(request("s")));
  expect(failed.at(-1)).toMatchObject({ type: "error", error: { kind: "server" } });
  expect(failed.filter((e) => e.type === "error" || e.type === "done")).toHaveLength(1);
  const exhausted = await collect(p.stream(request("s")));
  expect(exhausted).toEqual([expect.objectContaining({ type: "error" })]);
});
