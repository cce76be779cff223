import { describe, expect, test } from "bun:test";
import { emptyUsage } from "../../../../src/kernel/index.ts";
import { makeEvent } from "../../../../src/kernel/run-events/events.ts";
import {
  initialState,
  reduce,
  reduceBatch,
  STREAM_TAIL_CHARS,
  type UiState,
} from "../../../../src/ui/ink/state/state.ts";
import { approvalRequest, editor, finishedRun, reader, root, sampleRun } from "../../fixtures.ts";

function run(events = sampleRun()): UiState {
  return events.reduce((state, event) => reduce(state, { type: "event", event }), initialState());
}

describe("UI reducer", () => {
  test("builds the delegation tree of active agents, in tree order", () => {
    const events = sampleRun();
    // up to the grep call inside code-reader
    const state = run(events.slice(0, 7));
    expect(state.agents.map((a) => [a.id, a.depth, a.parent])).toEqual([
      ["root", 0, undefined],
      [editor.agent, 1, "root"],
      [reader.agent, 2, editor.agent],
    ]);
    expect(state.agents[2]?.tools.map((t) => `${t.tool} ${t.description}`)).toEqual(["grep TODO in src"]);
    expect(state.goal).toBe("fix the bug");
    expect(state.model).toBe("m-1");
  });

  test("finished items are appended in order with depth; returning agents leave the live tree", () => {
    const state = run();
    expect(state.agents.map((a) => a.id)).toEqual(["root"]);
    expect(state.history.map((h) => [h.kind, h.depth, h.text])).toEqual([
      ["goal", 0, "fix the bug"],
      ["message", 0, "Let me delegate."],
      ["delegate", 0, "delegating to code-editor: fix src/x.ts"],
      ["delegate", 1, "delegating to code-reader: find the bug"],
      ["tool", 2, "grep TODO in src — 3 matches (5ms)"],
      ["return", 1, "code-reader: success (stop) line 3"],
      ["approval", 1, "denied edit_file src/x.ts (by --on-ask)"],
      ["warning", 1, "stalled once"],
      ["return", 0, "code-editor: success (stop) could not edit"],
      ["message", 0, "Done: the fix."],
    ]);
    expect(state.history.map((h) => h.key)).toEqual(state.history.map((_, i) => i));
    expect(state.usage.inputTokens).toBe(200);
    expect(state.lastRootText).toBe("Done: the fix.");
  });

  test("never mutates the previous state", () => {
    const before = run(sampleRun().slice(0, 5));
    const snapshot = JSON.stringify(before);
    reduce(before, {
      type: "event",
      event: makeEvent(editor, "tool_start", { id: "x", tool: "exec", args: {} }),
    });
    expect(JSON.stringify(before)).toBe(snapshot);
  });

  test("a fresh generation holds only new items; a batch without items keeps the generation", () => {
    const first = run(sampleRun().slice(0, 3));
    expect(first.historyGeneration).toBe(0);
    const warn = { type: "event" as const, event: makeEvent(root, "warning", { message: "w" }) };
    const next = reduceBatch(first, [warn], { freshHistory: true });
    expect(next.historyGeneration).toBe(1);
    expect(next.history.map((h) => h.text)).toEqual(["w"]);
    expect(next.history[0]?.key).toBe(first.nextKey);
    const delta = { type: "event" as const, event: makeEvent(root, "text_delta", { delta: "x" }) };
    const quiet = reduceBatch(next, [delta], { freshHistory: true });
    expect(quiet.historyGeneration).toBe(1);
    expect(quiet.history).toBe(quiet.history);
    expect(quiet.history.map((h) => h.text)).toEqual(["w"]);
  });

  test("streaming text is bounded and cleared when the turn ends", () => {
    let state = run(sampleRun().slice(0, 2));
    const big = "x".repeat(1000);
    for (let i = 0; i < 50; i++) {
      state = reduce(state, { type: "event", event: makeEvent(root, "text_delta", { delta: `${big}\n` }) });
    }
    expect(state.agents[0]?.streamTail.length).toBe(STREAM_TAIL_CHARS);
    state = reduce(state, {
      type: "event",
      event: makeEvent(root, "plan_end", {
        turn: 1,
        stopReason: "x",
        usage: state.usage,
        text: "",
        toolCalls: [],
      }),
    });
    expect(state.agents[0]?.streamTail).toBe("");
  });

  test("reasoning streams into the live area as progress and never becomes a history message", () => {
    let state = run(sampleRun().slice(0, 2));
    const before = state.history.length;
    state = reduce(state, {
      type: "event",
      event: makeEvent(root, "reasoning_delta", { delta: "Checking first." }),
    });
    expect(state.agents[0]?.streamTail).toBe("Checking first.");
    expect(state.history.length).toBe(before);
  });

  test("approval queue: enqueued in order, settled by id; finish clears the live tree", () => {
    let state = run(sampleRun().slice(0, 6));
    state = reduce(state, { type: "approval_enqueued", request: approvalRequest("r1") });
    state = reduce(state, { type: "approval_enqueued", request: approvalRequest("r2") });
    state = reduce(state, { type: "approval_enqueued", request: approvalRequest("r1") });
    expect(state.approvals.map((r) => r.id)).toEqual(["r1", "r2"]);
    state = reduce(state, { type: "approval_settled", id: "r1" });
    expect(state.approvals.map((r) => r.id)).toEqual(["r2"]);
    state = reduce(state, { type: "finish", run: finishedRun(), now: 5 });
    expect(state.agents).toEqual([]);
    expect(state.finished?.finishedAt).toBe(5);
    expect(state.costUsd).toBe(0.03);
  });

  test("live cost prices each turn with the model of the agent that made it", () => {
    const prices: Record<string, number> = { "m-1": 0.5, "m-small": 0.01 };
    const costOf = (model: string) => prices[model] ?? 100;
    const events = [
      ...sampleRun(),
      makeEvent(reader, "plan_start", { turn: 1, model: "m-small" }),
      makeEvent(reader, "plan_end", {
        turn: 1,
        stopReason: "end_turn",
        usage: { ...emptyUsage(), inputTokens: 1, outputTokens: 1 },
        text: "",
        toolCalls: [],
      }),
    ];
    const state = events.reduce((s, event) => reduce(s, { type: "event", event }, costOf), initialState());
    expect(state.costUsd).toBeCloseTo(1.01);
  });
});

describe("failed verification in the history", () => {
  test("a failed verify: command is shown; a failed tool call is not repeated (its tool_end shows it)", () => {
    const state = run([
      makeEvent(editor, "verify", { step: "tool", ok: false, detail: "exec: The user denied exec ls" }),
      makeEvent(editor, "verify", {
        step: "command",
        ok: false,
        detail: "1 test failed",
        command: "npm test",
      }),
    ]);
    expect(state.history.map((h) => h.text)).toEqual(["verify npm test: 1 test failed"]);
  });
});

describe("compaction and fallback in the UI state", () => {
  const compaction = makeEvent(root, "compaction", {
    reason: "threshold",
    model: "m-fast",
    summarized: 12,
    kept: 8,
    inputTokens: 160_000,
    contextWindow: 200_000,
    summary: { role: "user", content: "Goal: x" },
  });

  test("a compaction is one history line saying what was summarised and kept", () => {
    const state = run([compaction]);
    expect(state.history.map((h) => [h.kind, h.text])).toEqual([
      [
        "info",
        "compacted the conversation at 160.0k of 200.0k tokens: 12 earlier messages summarised by m-fast, the last 8 kept",
      ],
    ]);
  });

  test("after a fallback the status model stays the one in use on the next turns", () => {
    const state = run([
      ...sampleRun().slice(0, 1),
      makeEvent(root, "model_switch", {
        from: "anthropic:m-1",
        to: "openai:m-2",
        reason: "overloaded: busy",
      }),
      makeEvent(root, "plan_start", { turn: 2, model: "m-1" }),
    ]);
    expect(state.model).toBe("openai:m-2");
  });
});

test("an MCP tool's progress shows as one line under the running tool", () => {
  const tool = "mcp:everything/trigger-long-running-operation";
  let state = run([
    makeEvent(root, "plan_start", { turn: 1, model: "m-1" }),
    makeEvent(root, "tool_start", { id: "c1", tool, args: {}, kind: "mcp" }),
    makeEvent(root, "tool_progress", { id: "c1", tool, progress: 2, total: 15 }),
  ]);
  const running = () => state.agents.find((a) => a.id === "root")?.tools.find((t) => t.id === "c1");
  expect(running()?.output).toEqual({ lines: ["progress 2/15"], lineCount: 0 });
  state = reduce(state, {
    type: "event",
    event: makeEvent(root, "tool_progress", { id: "c1", tool, progress: 3, total: 15, message: "indexing" }),
  });
  expect(running()?.output).toEqual({ lines: ["progress 3/15 · indexing"], lineCount: 0 });
});
