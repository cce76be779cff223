import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { appendFileSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { emptyUsage } from "../../src/kernel/conversation/usage.ts";
import { exitCodeForAppError } from "../../src/kernel/errors.ts";
import { type AgentEvent, makeEvent, type RunResult } from "../../src/kernel/run-events/events.ts";
import { formatSession } from "../../src/session/format-session.ts";
import { latestSession, listSessions } from "../../src/session/session-summary.ts";
import { findSession, readTranscript } from "../../src/session/sessions.ts";
import { thrownAppError } from "../support/thrown-app-error.ts";

const root = { agent: "root", name: "root", depth: 0 };
const child = { agent: "root/code-editor#1", name: "code-editor", parent: "root", depth: 1 };
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "agent-sessions-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function at<E extends AgentEvent>(event: E, time: number): E {
  return { ...event, time };
}

const result: RunResult = {
  status: "success",
  finishReason: "stop",
  answer: "All fixed.\nDetails…",
  usage: [],
};

function writeSession(id: string, time: number, goal: string, finished: boolean): string {
  const path = join(dir, `${id}.jsonl`);
  const events: AgentEvent[] = [
    at(
      makeEvent(root, "session_start", { sessionId: id, goal, agentName: "root", model: "m1", cwd: "/w" }),
      time,
    ),
  ];
  if (finished) events.push(at(makeEvent(root, "session_end", { ...result, sessionId: id }), time + 5));
  writeFileSync(path, events.map((e) => `${JSON.stringify(e)}\n`).join(""));
  return path;
}

describe("readTranscript", () => {
  test("skips a torn last line with a warning", () => {
    const path = writeSession("20261122-100000-aaaaaa", 1000, "goal", true);
    appendFileSync(path, '{"kind":"tool_st');
    const read = readTranscript("20261122-100000-aaaaaa", { dir });
    expect(read.events.map((e) => e.kind)).toEqual(["session_start", "session_end"]);
    expect(read.warnings).toHaveLength(1);
    expect(read.warnings[0]).toContain(":3:");
  });

  test("a torn line in the middle is an error naming the line", () => {
    const path = join(dir, "20261122-100000-bbbbbb.jsonl");
    const ok = JSON.stringify(makeEvent(root, "warning", { message: "w" }));
    writeFileSync(path, `${ok}\nnot json\n${ok}\n`);
    const error = thrownAppError(() => readTranscript(path));
    expect(error.kind).toBe("session");
    expect(error.details.line).toBe(2);
    expect(error.message).toContain(":2:");
  });
});

describe("findSession", () => {
  test("an unknown id is a session error (exit 2), and nothing is created", () => {
    const error = thrownAppError(() => findSession("20990101-000000-ffffff", { dir }));
    expect(error.kind).toBe("session");
    expect(exitCodeForAppError(error.kind)).toBe(2);
    expect(listSessions({ dir })).toEqual([]);
    expect(thrownAppError(() => readTranscript("nope", { dir })).kind).toBe("session");
  });

  test("finds by exact id or unique prefix", () => {
    const path = writeSession("20261122-100000-aaaaaa", 1000, "goal", true);
    writeSession("20261122-110000-bbbbbb", 2000, "goal", true);
    expect(findSession("20261122-100000-aaaaaa", { dir })).toBe(path);
    expect(findSession("20261122-10", { dir })).toBe(path);
    expect(thrownAppError(() => findSession("20261122", { dir })).message).toContain("ambiguous");
  });
});

describe("listSessions", () => {
  test("newest first, with goal, status and answer preview", () => {
    writeSession("20261122-100000-aaaaaa", 1000, "older goal", true);
    writeSession("20261122-120000-cccccc", 3000, "newest goal", false);
    writeSession("20261122-110000-bbbbbb", 2000, "middle goal", true);
    const list = listSessions({ dir });
    expect(list.map((s) => s.id)).toEqual([
      "20261122-120000-cccccc",
      "20261122-110000-bbbbbb",
      "20261122-100000-aaaaaa",
    ]);
    expect(list[0]).toMatchObject({ goal: "newest goal", status: "incomplete", time: 3000 });
    expect(list[1]).toMatchObject({ goal: "middle goal", status: "success", answerPreview: "All fixed." });
  });
});

describe("session summaries: turns, cost, workspace", () => {
  /** A root usage report costing `cost` USD. */
  function costing(cost: number): RunResult {
    const usage = emptyUsage();
    const report = { agent: "root", name: "root", depth: 0, model: "m1", usage, costUsd: cost };
    return { ...result, usage: [{ ...report, subtree: { usage, costUsd: cost } }] };
  }

  test("every root run is a turn; cost adds up over them; a child's end counts for nothing", () => {
    const id = "20261122-100000-aaaaaa";
    const start = (goal: string) =>
      makeEvent(root, "session_start", { sessionId: id, goal, agentName: "root", model: "m1", cwd: "/w" });
    const events: AgentEvent[] = [
      at(start("first"), 1000),
      makeEvent(child, "session_end", { ...costing(5), sessionId: id }),
      makeEvent(root, "session_end", { ...costing(0.25), sessionId: id }),
      start("second"),
      makeEvent(root, "session_end", { ...costing(0.5), answer: "Second answer.", sessionId: id }),
      start("third, still running"),
    ];
    writeFileSync(join(dir, `${id}.jsonl`), events.map((e) => `${JSON.stringify(e)}\n`).join(""));
    const [summary] = listSessions({ dir });
    expect(summary).toMatchObject({
      goal: "first",
      cwd: "/w",
      turns: 3,
      costUsd: 0.75,
      status: "incomplete",
      time: 1000,
    });
  });

  test("listSessions filters by workspace; latestSession picks the one written last there", () => {
    writeSession("20261122-100000-aaaaaa", 1000, "in w, older", true);
    writeSession("20261122-110000-bbbbbb", 2000, "in w, newer", true);
    const elsewhere = join(dir, "20261122-120000-cccccc.jsonl");
    writeFileSync(
      elsewhere,
      `${JSON.stringify(makeEvent(root, "session_start", { sessionId: "c", goal: "x", agentName: "root", model: "m1", cwd: "/other" }))}\n`,
    );
    expect(listSessions({ dir, workspace: "/w" }).map((s) => s.goal)).toEqual(["in w, newer", "in w, older"]);
    // The older one was continued most recently: its file was written last.
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(dir, "20261122-100000-aaaaaa.jsonl"), later, later);
    expect(latestSession("/w", { dir })?.goal).toBe("in w, older");
    expect(latestSession("/nowhere", { dir })).toBeUndefined();
  });

  test("a short id (the random suffix) finds its session", () => {
    const path = writeSession("20261122-100000-abc123", 1000, "goal", true);
    writeSession("20261122-110000-def456", 2000, "goal", true);
    expect(findSession("abc123", { dir })).toBe(path);
    expect(findSession("abc", { dir })).toBe(path);
  });
});

describe("formatSession", () => {
  test("shows the delegation tree, tool calls and the answer", () => {
    const events: AgentEvent[] = [
      makeEvent(root, "session_start", {
        sessionId: "s1",
        goal: "fix it",
        agentName: "root",
        model: "m",
        cwd: "/w",
      }),
      makeEvent(root, "act_start", {
        id: "a1",
        child: child.agent,
        childName: "code-editor",
        goal: "edit x",
      }),
      makeEvent(child, "tool_end", {
        id: "t1",
        tool: "edit_file",
        isError: false,
        summary: "src/x.ts +1 -1",
        display: "",
        durationMs: 4,
      }),
      makeEvent(root, "session_end", { ...result, sessionId: "s1" }),
    ];
    const text = formatSession(events);
    expect(text).toContain("goal: fix it");
    expect(text).toContain("▸ root: delegating to code-editor: edit x");
    expect(text).toMatch(/s {3}✓ edit_file src\/x\.ts \+1 -1/);
    expect(text).toContain("All fixed.");
  });
});
