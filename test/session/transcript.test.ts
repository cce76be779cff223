import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AppError } from "../../src/kernel/errors.ts";
import { type AgentEvent, makeEvent } from "../../src/kernel/run-events/events.ts";
import { Redactor } from "../../src/kernel/text/redact.ts";
import { newSessionId, SESSION_ID_PATTERN } from "../../src/session/session-id.ts";
import { readTranscript } from "../../src/session/sessions.ts";
import { openTranscript } from "../../src/session/transcript.ts";

const root = { agent: "root", name: "root", depth: 0 };
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "agent-transcript-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function start(sessionId: string, goal = "fix the bug"): AgentEvent {
  return makeEvent(root, "session_start", { sessionId, goal, agentName: "root", model: "m", cwd: "/w" });
}

describe("session ids", () => {
  test("are sortable by time and unique", () => {
    const a = newSessionId(new Date("2026-11-22T14:35:01Z"));
    const b = newSessionId(new Date("2026-11-22T14:35:02Z"));
    expect(a).toMatch(SESSION_ID_PATTERN);
    expect(a.startsWith("20261122-143501-")).toBe(true);
    expect(a < b).toBe(true);
    const many = new Set(Array.from({ length: 200 }, () => newSessionId(new Date(0))));
    expect(many.size).toBe(200);
  });
});

describe("openTranscript", () => {
  test("each event is on disk, one JSON line, right after append (before close)", () => {
    const t = openTranscript({ dir, redactor: new Redactor([]) });
    expect(t.path).toBe(join(dir, `${t.id}.jsonl`));
    t.append(start(t.id));
    let lines = readFileSync(t.path, "utf8").trimEnd().split("\n");
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? "").kind).toBe("session_start");

    t.append(makeEvent(root, "text_delta", { delta: "line one\nline two" }));
    lines = readFileSync(t.path, "utf8").trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[1] ?? "").data.delta).toBe("line one\nline two");
    expect(readTranscript(t.path).events.map((e) => e.kind)).toEqual(["session_start", "text_delta"]);
    t.close();
    t.close();
    expect(() => t.append(start(t.id))).toThrow();
  });

  test("secrets from the environment and Authorization headers never reach the file", () => {
    const key = "sk-test-SUPERSECRETVALUE-1234567890";
    const t = openTranscript({ dir, redactor: Redactor.fromEnv({ ANTHROPIC_API_KEY: key }) });
    t.append(
      makeEvent(root, "tool_end", {
        id: "c1",
        tool: "exec",
        isError: false,
        summary: `curl -H "Authorization: Bearer xyz" -H "x-api-key: ${key}"`,
        display: `token is ${key}`,
        durationMs: 3,
      }),
    );
    t.append(
      makeEvent(root, "tool_start", {
        id: "c2",
        tool: "fetch",
        args: { url: "https://example.com", headers: { Authorization: "Bearer xyz" } },
      }),
    );
    t.close();
    const text = readFileSync(t.path, "utf8");
    expect(text).not.toContain(key);
    expect(text).not.toContain("xyz");
    expect(text).toContain("[REDACTED]");
  });

  test("resuming appends to the same file; an unknown id is a session error", () => {
    const first = openTranscript({ dir, redactor: new Redactor([]) });
    first.append(start(first.id));
    first.close();
    const again = openTranscript({ dir, sessionId: first.id, redactor: new Redactor([]) });
    again.append(start(first.id, "continue"));
    again.close();
    expect(readTranscript(first.path).events).toHaveLength(2);
    let error: unknown;
    try {
      openTranscript({ dir, sessionId: "20990101-000000-abcdef", redactor: new Redactor([]) });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).kind).toBe("session");
    expect(() => openTranscript({ dir, sessionId: "../escape", redactor: new Redactor([]) })).toThrow(
      AppError,
    );
  });

  test("resuming after a crash cuts the torn last line so new records stay readable", () => {
    const id = "20261122-100000-aaaaaa";
    const path = join(dir, `${id}.jsonl`);
    writeFileSync(path, `${JSON.stringify(start(id))}\n{"kind":"text_del`);
    const t = openTranscript({ dir, sessionId: id, redactor: new Redactor([]) });
    expect(t.repairedTornLine).toBe(true);
    t.append(makeEvent(root, "warning", { message: "resumed" }));
    t.close();
    const read = readTranscript(path);
    expect(read.warnings).toEqual([]);
    expect(read.events.map((e) => e.kind)).toEqual(["session_start", "warning"]);
  });

  test("a complete last record without its newline is kept", () => {
    const id = "20261122-100000-bbbbbb";
    const path = join(dir, `${id}.jsonl`);
    writeFileSync(path, JSON.stringify(start(id)));
    const t = openTranscript({ dir, sessionId: id, redactor: new Redactor([]) });
    expect(t.repairedTornLine).toBe(false);
    t.append(makeEvent(root, "warning", { message: "next" }));
    t.close();
    appendFileSync(path, "");
    expect(readTranscript(path).events).toHaveLength(2);
  });
});
