import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type AgentEvent, makeEvent, type RunResult } from "../../../../src/kernel/index.ts";
import { Redactor } from "../../../../src/kernel/text/redact.ts";
import { openTranscript } from "../../../../src/session/transcript.ts";
import { makeSandbox, runAgent, type Sandbox } from "../../../cli/run-agent.ts";

let sandbox: Sandbox;
/** The workspace OLD and NEW belong to (the directory the command runs in); RUNNING is elsewhere. */
let workspace: string;
const root = { agent: "root", name: "root", depth: 0 };
const OLD = "20261120-090000-aaaaaa";
const NEW = "20261121-100000-bbbbbb";
const RUNNING = "20261119-080000-cccccc";
const HOSTILE = "20261118-070000-dddddd";
/** A transcript whose goal and answer carry a title change (OSC 0) and a clipboard write (OSC 52). */
const TITLE = "\u001b]0;pwned\u0007";
const CLIPBOARD = "\u001b]52;c;ZWNobyBoaQ==\u0007";

const done: RunResult = { status: "success", finishReason: "stop", answer: "Fixed the parser.", usage: [] };

function at<E extends AgentEvent>(event: E, time: number): E {
  return { ...event, time };
}

/** Writes a session with `openTranscript`, as `agent run` does (resuming an empty file fixes the id). */
function writeSession(id: string, time: number, goal: string, result?: RunResult, cwd = workspace): void {
  const dir = join(sandbox.stateDir, "agent", "sessions");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${id}.jsonl`), "");
  const file = openTranscript({ dir, sessionId: id, redactor: new Redactor([]) });
  file.append(
    at(makeEvent(root, "session_start", { sessionId: id, goal, agentName: "root", model: "m-1", cwd }), time),
  );
  file.append(
    at(
      makeEvent(root, "tool_end", {
        id: "c1",
        tool: "read_file",
        isError: false,
        summary: "src/parser.ts",
        display: "",
        durationMs: 4,
      }),
      time + 1000,
    ),
  );
  if (result) file.append(at(makeEvent(root, "session_end", { ...result, sessionId: id }), time + 2000));
  file.close();
}

beforeAll(() => {
  sandbox = makeSandbox();
  workspace = join(sandbox.dir, "ws");
  mkdirSync(workspace);
  workspace = realpathSync(workspace);
  writeSession(OLD, Date.UTC(2026, 10, 20, 9), "fix the parser\nand its tests", done);
  writeSession(NEW, Date.UTC(2026, 10, 21, 10), "explain the cache", {
    ...done,
    status: "limit",
    finishReason: "max_turns",
  });
  writeSession(RUNNING, Date.UTC(2026, 10, 19, 8), "still going", undefined, "/elsewhere");
  writeSession(HOSTILE, Date.UTC(2026, 10, 18, 7), `read ${TITLE}me`, {
    ...done,
    answer: `All ${CLIPBOARD}done.`,
  });
});
afterAll(() => {
  sandbox.cleanup();
});

function sessions(args: string[]) {
  return runAgent(["sessions", ...args], { env: sandbox.env({ TZ: "UTC" }), cwd: workspace });
}

describe("agent sessions", () => {
  test("list: this workspace's sessions, newest first, with short id, time, turns, cost, status and goal", async () => {
    const result = await sessions(["list"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^ID\s+STARTED\s+TURNS\s+COST\s+STATUS\s+WORKSPACE\s+GOAL$/);
    // The short form is the random suffix; RUNNING belongs to another workspace and is not listed.
    expect(lines.slice(1).map((l) => l.split(/\s+/)[0])).toEqual(["bbbbbb", "aaaaaa", "dddddd"]);
    expect(lines[1]).toMatch(
      /^bbbbbb\s+2026-11-21 10:00\s+1\s+\$0\.0000\s+limit\s+\S+\/ws\s+explain the cache$/,
    );
    expect(lines[2]).toMatch(/^aaaaaa\s+.*\s+success\s+\S+\/ws\s+fix the parser and its tests$/);
  });

  test("list --all shows every workspace's sessions, with the workspace of each", async () => {
    const result = await sessions(["list", "--all"]);
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split("\n");
    expect(lines.slice(1).map((l) => l.split(/\s+/)[0])).toEqual(["bbbbbb", "aaaaaa", "cccccc", "dddddd"]);
    expect(lines[3]).toMatch(/incomplete\s+\/elsewhere\s+still going$/);
  });

  test("list --cwd DIR shows that workspace's sessions", async () => {
    const result = await runAgent(["sessions", "list", "--cwd", workspace], {
      env: sandbox.env({ TZ: "UTC" }),
      cwd: sandbox.dir,
    });
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split("\n")).toHaveLength(4);
  });

  test("list --json is machine-readable, with the short id and workspace", async () => {
    const result = await sessions(["list", "--json", "--limit", "2", "--all"]);
    expect(result.code).toBe(0);
    const rows = JSON.parse(result.stdout) as { id: string; status: string; goal: string; started: string }[];
    expect(rows.map((r) => r.id)).toEqual([NEW, OLD]);
    expect(rows[0]).toMatchObject({
      status: "limit",
      goal: "explain the cache",
      started: "2026-11-21T10:00:00.000Z",
      shortId: "bbbbbb",
      cwd: workspace,
      turns: 1,
    });
  });

  test("show ID prints the formatted session; a unique prefix works too", async () => {
    const result = await sessions(["show", OLD]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`session ${OLD}`);
    expect(result.stdout).toContain("goal: fix the parser");
    expect(result.stdout).toContain("✓ read_file src/parser.ts");
    expect(result.stdout).toContain("Fixed the parser.");
    const prefix = await sessions(["show", NEW.slice(0, 12)]);
    expect(prefix.code).toBe(0);
    expect(prefix.stdout).toContain(`session ${NEW}`);
    const short = await sessions(["show", "bbbbbb"]);
    expect(short.code).toBe(0);
    expect(short.stdout).toContain(`session ${NEW}`);
  });

  test("list and show never pass the model's escape sequences to the reader's terminal", async () => {
    for (const args of [["list"], ["show", HOSTILE]]) {
      const result = await sessions(args);
      expect(result.code).toBe(0);
      expect(result.stdout).not.toContain("\u001b");
      expect(result.stdout).not.toContain("\u0007");
    }
    const shown = await sessions(["show", HOSTILE]);
    expect(shown.stdout).toContain("All done.");
    expect(shown.stdout).toContain("read me");
  });

  test("show --json carries the events", async () => {
    const result = await sessions(["show", "--json", OLD]);
    expect(result.code).toBe(0);
    const output = JSON.parse(result.stdout) as { id: string; events: { kind: string }[] };
    expect(output.id).toBe(OLD);
    expect(output.events.map((e) => e.kind)).toEqual(["session_start", "tool_end", "session_end"]);
  });

  test("show with an unknown id: exit 2 with a clear message", async () => {
    const result = await sessions(["show", "20991231-000000-ffffff"]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(
      'agent: unknown session "20991231-000000-ffffff" (see `agent sessions list`)\n',
    );
  });

  test("an empty state directory lists nothing and says where it looked", async () => {
    const empty = makeSandbox();
    try {
      const result = await runAgent(["sessions", "list"], { env: empty.env() });
      expect(result.code).toBe(0);
      expect(result.stdout).toBe("");
      expect(result.stderr).toContain(join(empty.stateDir, "agent", "sessions"));
    } finally {
      empty.cleanup();
    }
  });
});
