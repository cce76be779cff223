import { afterEach, beforeAll, describe, expect, test } from "bun:test";
import { cleanup, render } from "ink-testing-library";
import { emptyUsage } from "../../../../src/kernel/index.ts";
import { makeEvent } from "../../../../src/kernel/run-events/events.ts";
import { HistoryLine } from "../../../../src/ui/ink/history/history-line.tsx";
import { renderMarkdown } from "../../../../src/ui/ink/history/markdown.ts";
import { loadMarkdown } from "../../../../src/ui/ink/history/markdown-loader.ts";
import { initialState, reduce } from "../../../../src/ui/ink/state/state.ts";
import { UiStore } from "../../../../src/ui/ink/state/store.ts";
import { LiveArea } from "../../../../src/ui/ink/views/live-area.tsx";
import { root, tick } from "../../fixtures.ts";
import { renderRunApp } from "../../mount-app.tsx";

// The views render markdown once its renderer is loaded (markdown-loader.ts), as the CLI's renderers load it.
beforeAll(() => loadMarkdown());

afterEach(() => cleanup());

const MARKDOWN =
  "# Plan\n\nThis is **important** and *subtle*.\n\n- first\n- second\n\n```ts\nconst x = 1;\n```\n";

describe("markdown in the Ink view", () => {
  test("an assistant message renders as terminal markdown: heading, emphasis gone, bullets, fenced code as an indented block", () => {
    const { lastFrame } = render(
      <HistoryLine
        item={{ key: 1, kind: "message", depth: 0, agentName: "root", text: MARKDOWN }}
        colors={false}
      />,
    );
    const frame = lastFrame() ?? "";
    // Without colors (NO_COLOR) a heading keeps its `#` marker: bold would be stripped with the colors.
    expect(frame).toMatch(/^# Plan$/m);
    expect(frame).toContain("This is important and subtle.");
    expect(frame).toContain("  * first\n  * second");
    expect(frame).toContain("  const x = 1;");
    expect(frame).not.toContain("```");
    expect(frame).not.toContain("**");
  });

  test("model text reaches the markdown renderer terminal-safe: an OSC 52 clipboard write never shows", () => {
    const store = new UiStore({ flushMs: 0 });
    const text = "Copy \u001b]52;c;ZXZpbA==\u0007**this**";
    const usage = { ...emptyUsage(), inputTokens: 1, outputTokens: 1 };
    store.dispatch({
      type: "event",
      event: makeEvent(root, "plan_end", { turn: 1, stopReason: "end", usage, text, toolCalls: [] }),
    });
    store.flush();
    const item = store.getSnapshot().history.at(-1);
    if (!item) throw new Error("no history item");
    const { lastFrame } = render(<HistoryLine item={item} colors={true} />);
    expect(lastFrame()).not.toContain("]52;");
    expect(lastFrame()).toContain("Copy \u001b[1mthis\u001b[22m");
    store.dispose();
  });

  test("with colors, emphasis becomes SGR styles and nothing else", () => {
    const out = renderMarkdown("a **b** *c* `d`", true);
    expect(out).toBe("a \u001b[1mb\u001b[22m \u001b[3mc\u001b[23m \u001b[33md\u001b[39m");
  });
});

describe("exec output in the Ink view", () => {
  const tool = (lines: string[], lineCount: number) => ({
    id: "t1",
    tool: "exec",
    description: "make test",
    startedAt: 0,
    output: { lines, lineCount },
  });

  test("a running command shows its line count and its last lines, at most five", () => {
    const lines = ["l3", "l4", "l5", "l6", "l7"];
    const agents = [
      { id: "root", name: "root", depth: 0, startedAt: 0, streamTail: "", tools: [tool(lines, 7)] },
    ];
    const { lastFrame } = render(<LiveArea agents={agents} colors={false} columns={80} now={2000} />);
    const frame = lastFrame() ?? "";
    expect(frame).toContain("exec make test (2.0s) · 7 lines");
    expect(frame).toContain("    l3\n    l4\n    l5\n    l6\n    l7");
  });

  test("tool_output updates the running tool; tool_end leaves a history item with the last lines", () => {
    const start = makeEvent(root, "tool_start", { id: "t1", tool: "exec", args: { command: "make test" } });
    let state = reduce(initialState(), { type: "event", event: start });
    const output = makeEvent(root, "tool_output", {
      id: "t1",
      tool: "exec",
      lines: ["a", "b"],
      lineCount: 2,
    });
    state = reduce(state, { type: "event", event: output });
    expect(state.agents[0]?.tools[0]?.output).toEqual({ lines: ["a", "b"], lineCount: 2 });
    const end = makeEvent(root, "tool_end", {
      id: "t1",
      tool: "exec",
      isError: true,
      summary: "exit code 2, 40 lines",
      display: "",
      durationMs: 5,
      tail: ["FAIL x", "2 failed"],
    });
    state = reduce(state, { type: "event", event: end });
    expect(state.agents[0]?.tools).toEqual([]);
    const item = state.history.at(-1);
    expect(item).toMatchObject({ kind: "tool", ok: false, detail: ["FAIL x", "2 failed"] });
    if (!item) throw new Error("no history item");
    const { lastFrame } = render(<HistoryLine item={item} colors={false} />);
    expect(lastFrame()).toBe("  ✗ exec $ make test — exit code 2, 40 lines (5ms)\n    FAIL x\n    2 failed");
  });
});

describe("waiting for the model", () => {
  test("a spinner with the time waited shows from plan_start until the first token", () => {
    const start = makeEvent(root, "plan_start", { turn: 1, model: "m-1" });
    let state = reduce(initialState(), { type: "event", event: start });
    const waiting = render(
      <LiveArea agents={state.agents} colors={false} columns={80} now={start.time + 3000} />,
    );
    expect(waiting.lastFrame()).toMatch(/^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] root 3\.0s · waiting for m-1 3\.0s$/);
    state = reduce(state, { type: "event", event: makeEvent(root, "text_delta", { delta: "Hi" }) });
    const streaming = render(
      <LiveArea agents={state.agents} colors={false} columns={80} now={start.time + 3000} />,
    );
    expect(streaming.lastFrame()).not.toContain("waiting");
    expect(streaming.lastFrame()).toContain("Hi");
  });
});

describe("status line after a fallback", () => {
  test("shows the model switched to, also on the next turn's plan_start", async () => {
    const store = new UiStore({ flushMs: 1 });
    const { lastFrame } = renderRunApp(store);
    const events = [
      makeEvent(root, "session_start", {
        sessionId: "s",
        goal: "g",
        agentName: "root",
        model: "m-1",
        cwd: "/w",
      }),
      makeEvent(root, "plan_start", { turn: 1, model: "m-1" }),
      makeEvent(root, "model_switch", { from: "anthropic:m-1", to: "openai:m-2", reason: "overloaded" }),
      makeEvent(root, "plan_start", { turn: 2, model: "m-1" }),
    ];
    for (const event of events) store.dispatch({ type: "event", event });
    await tick(20);
    const status = (lastFrame() ?? "").split("\n").at(-1) ?? "";
    expect(status).toStartWith("openai:m-2 · ");
  });
});
