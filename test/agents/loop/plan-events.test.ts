/** The plan step passes reasoning on as progress and provider warnings on as warning events. */
import { describe, expect, test } from "bun:test";
import { planTurn } from "../../../src/agents/loop/plan.ts";
import {
  type AgentEvent,
  emptyUsage,
  type ModelRequest,
  type StreamEvent,
} from "../../../src/kernel/index.ts";

const request: ModelRequest = {
  model: { provider: "anthropic", providerName: "anthropic", id: "claude-sonnet-5-5" },
  system: "",
  messages: [{ role: "user", content: "go" }],
  tools: [],
};

async function* stream(): AsyncGenerator<StreamEvent> {
  yield { type: "warning", code: "thinking_dropped", message: "the API dropped 1 thinking block sent back" };
  yield { type: "reasoning_delta", index: 0, delta: "I'll read the file first." };
  yield { type: "text_start", index: 1 };
  yield { type: "text_delta", index: 1, delta: "Answer." };
  yield {
    type: "done",
    stopReason: "end",
    rawStopReason: "end_turn",
    usage: emptyUsage(),
    model: "claude-sonnet-5-5",
    message: {
      role: "assistant",
      parts: [
        { type: "reasoning", text: "I'll read the file first.", provider: "anthropic" },
        { type: "text", text: "Answer." },
      ],
    },
  };
}

describe("planTurn events", () => {
  test("reasoning_delta and warning reach the event stream; reasoning is not in the plan text", async () => {
    const events: AgentEvent[] = [];
    const outcome = await planTurn(
      request,
      stream,
      { agent: "root", name: "root", depth: 0 },
      (e) => events.push(e),
      1,
    );
    expect(outcome.ok).toBe(true);
    const kinds = events.map((e) => e.kind);
    expect(kinds).toEqual(["plan_start", "warning", "reasoning_delta", "text_delta", "plan_end"]);
    expect(events[1]).toMatchObject({ data: { code: "thinking_dropped" } });
    expect(events[2]).toMatchObject({ data: { delta: "I'll read the file first." } });
    expect(events.at(-1)).toMatchObject({ data: { text: "Answer." } });
  });
});
