/**
 * Parallel sub-agents of one name (issue 21 item 7): told apart by their index, each tool line under its
 * own agent, and each sub-agent's answer shown once; in the Ink state, the live area and plain progress.
 */

import { afterEach, describe, expect, test } from "bun:test";
import { cleanup, render } from "ink-testing-library";
import { emptyUsage } from "../../../../src/kernel/index.ts";
import { type AgentEvent, type AgentIdentity, makeEvent } from "../../../../src/kernel/run-events/events.ts";
import { initialState, reduce, type UiState } from "../../../../src/ui/ink/state/state.ts";
import { LiveArea } from "../../../../src/ui/ink/views/live-area.tsx";
import { ProgressLines } from "../../../../src/ui/progress-lines.ts";
import { finishedRun, MemorySink, root } from "../../fixtures.ts";

afterEach(() => cleanup());

const one: AgentIdentity = { agent: "root/code-reader#1", name: "code-reader", parent: "root", depth: 1 };
const two: AgentIdentity = { agent: "root/code-reader#2", name: "code-reader", parent: "root", depth: 1 };
const usage = { ...emptyUsage(), inputTokens: 1, outputTokens: 1 };

function read(who: AgentIdentity, id: string, path: string): AgentEvent[] {
  return [
    makeEvent(who, "tool_start", { id, tool: "read_file", args: { path } }),
    makeEvent(who, "tool_end", {
      id,
      tool: "read_file",
      isError: false,
      summary: `Read ${path}`,
      display: "",
      durationMs: 1,
    }),
  ];
}

function answer(who: AgentIdentity, text: string): AgentEvent {
  return makeEvent(who, "plan_end", { turn: 2, stopReason: "end_turn", usage, text, toolCalls: [] });
}

function actEnd(who: AgentIdentity, id: string, text: string): AgentEvent {
  return makeEvent(root, "act_end", {
    id,
    child: who.agent,
    childName: "code-reader",
    status: "success",
    finishReason: "stop",
    answer: text,
  });
}

/** Two code-readers started together whose tool calls interleave; #2 returns first. */
function started(): AgentEvent[] {
  return [
    makeEvent(root, "session_start", {
      sessionId: "s",
      goal: "look",
      agentName: "root",
      model: "m",
      cwd: "/w",
    }),
    makeEvent(root, "act_start", {
      id: "a1",
      child: one.agent,
      childName: "code-reader",
      goal: "read the API",
    }),
    makeEvent(root, "act_start", {
      id: "a2",
      child: two.agent,
      childName: "code-reader",
      goal: "read the tests",
    }),
    // Call ids come from the model: two sub-agents may well be given the same ones.
    ...read(one, "t1", "src/api.ts"),
    ...read(two, "t1", "test/api.test.ts"),
    ...read(one, "t2", "src/types.ts"),
  ];
}

function finished(): AgentEvent[] {
  return [
    ...started(),
    answer(two, "The tests cover the API."),
    actEnd(two, "a2", "The tests cover the API."),
    answer(one, "The API has two routes."),
    actEnd(one, "a1", "The API has two routes."),
  ];
}

function reduceAll(events: AgentEvent[]): UiState {
  return events.reduce((s, event) => reduce(s, { type: "event", event }), initialState());
}

describe("parallel sub-agents in the Ink history", () => {
  test("each sub-agent's lines enter the history together: delegate line, its tools, its answer, its return", () => {
    const rows = reduceAll(finished()).history.map((h) => [h.kind, h.depth, h.agentName, h.text]);
    expect(rows).toEqual([
      ["goal", 0, "root", "look"],
      ["delegate", 0, "root", "delegating to code-reader #2: read the tests"],
      ["tool", 1, "code-reader #2", "read_file test/api.test.ts — Read test/api.test.ts (1ms)"],
      ["message", 1, "code-reader #2", "The tests cover the API."],
      ["return", 0, "root", "code-reader #2: success (stop)"],
      // Delegated before a second code-reader existed, then told apart as #1.
      ["delegate", 0, "root", "delegating to code-reader: read the API"],
      ["tool", 1, "code-reader #1", "read_file src/api.ts — Read src/api.ts (1ms)"],
      ["tool", 1, "code-reader #1", "read_file src/types.ts — Read src/types.ts (1ms)"],
      ["message", 1, "code-reader #1", "The API has two routes."],
      ["return", 0, "root", "code-reader #1: success (stop)"],
    ]);
  });

  test("a sub-agent's answer is shown once: the return line repeats it only when no message showed it", () => {
    const texts = reduceAll(finished()).history.map((h) => h.text);
    expect(texts.filter((t) => t.includes("The tests cover the API."))).toHaveLength(1);
    const limited = reduceAll([
      ...started(),
      makeEvent(root, "act_end", {
        id: "a2",
        child: two.agent,
        childName: "code-reader",
        status: "limit",
        finishReason: "max_turns",
        answer: "partial notes",
      }),
    ]);
    expect(limited.history.at(-1)?.text).toBe("code-reader #2: limit (max_turns) partial notes");
  });

  test("while they run, nothing of theirs is in the history yet; a run that ends early still shows it", () => {
    const running = reduceAll(started());
    expect(running.history.map((h) => h.kind)).toEqual(["goal"]);
    const ended = reduce(running, { type: "finish", run: finishedRun({ status: "interrupted" }), now: 1 });
    expect(ended.history.map((h) => h.text)).toEqual([
      "look",
      "delegating to code-reader: read the API",
      "read_file src/api.ts — Read src/api.ts (1ms)",
      "read_file src/types.ts — Read src/types.ts (1ms)",
      "delegating to code-reader #2: read the tests",
      "read_file test/api.test.ts — Read test/api.test.ts (1ms)",
    ]);
  });

  test("the live area tells them apart by index and goal, each with its own latest tool lines", () => {
    const state = reduceAll(started());
    const { lastFrame } = render(
      <LiveArea agents={state.agents} colors={false} columns={100} now={state.startedAt ?? 0} />,
    );
    const frame = lastFrame() ?? "";
    const lines = frame.split("\n");
    const first = lines.findIndex((l) => l.includes("code-reader #1 read the API"));
    const second = lines.findIndex((l) => l.includes("code-reader #2 read the tests"));
    expect(first).toBeGreaterThan(-1);
    expect(second).toBeGreaterThan(first);
    const underFirst = lines.slice(first + 1, second).join("\n");
    expect(underFirst).toContain("✓ read_file src/api.ts");
    expect(underFirst).toContain("✓ read_file src/types.ts");
    expect(underFirst).not.toContain("test/api.test.ts");
    expect(lines.slice(second + 1).join("\n")).toContain("✓ read_file test/api.test.ts");
  });
});

describe("parallel sub-agents in plain progress", () => {
  test("delegate and return lines carry the index; a tool line names its agent while another runs beside it", () => {
    const stderr = new MemorySink();
    const progress = new ProgressLines({ stderr, colors: false, level: "full" });
    for (const event of finished()) progress.onEvent(event);
    expect(stderr.lines).toEqual([
      "▸ root (m): look",
      "▸ root: delegating to code-reader: read the API",
      "▸ root: delegating to code-reader #2: read the tests",
      "    [code-reader #1] ✓ read_file src/api.ts — Read src/api.ts (1ms)",
      "    [code-reader #2] ✓ read_file test/api.test.ts — Read test/api.test.ts (1ms)",
      "    [code-reader #1] ✓ read_file src/types.ts — Read src/types.ts (1ms)",
      "◂ code-reader #2: success (stop) The tests cover the API.",
      "◂ code-reader #1: success (stop) The API has two routes.",
    ]);
  });
});
