/**
 * A huge transcript for the `sessions list` tests (test/session/huge-transcript.test.ts in process, and
 * test/e2e/session/huge-transcript-memory.test.ts from a separate process): about 50 MB, whose goal,
 * answers and a tool result are far longer than what is kept of a line, with escapes and multi-byte
 * characters at every chunk boundary.
 */
import { appendFileSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { emptyUsage } from "../../src/kernel/conversation/usage.ts";
import { makeEvent, type RunResult } from "../../src/kernel/run-events/events.ts";

const root = { agent: "root", name: "root", depth: 0 };
const id = "20261126-100000-bbbbbb";

function costing(cost: number, answer: string): RunResult {
  const usage = emptyUsage();
  const report = { agent: "root", name: "root", depth: 0, model: "m1", usage, costUsd: cost };
  return {
    status: "success",
    finishReason: "stop",
    answer,
    usage: [{ ...report, subtree: { usage, costUsd: cost } }],
  };
}

const line = (value: unknown) => `${JSON.stringify(value)}\n`;
const MB = 1024 * 1024;

/** Writes the transcript (one session, two runs) into a new temp directory and returns the directory. */
export function writeHugeTranscript(): string {
  const dir = mkdtempSync(join(tmpdir(), "agent-huge-"));
  const file = join(dir, `${id}.jsonl`);
  // A goal and an answer each far longer than what is kept of a line, with escapes and multi-byte
  // characters at every chunk boundary; a huge tool result between them.
  const big = `Answer line one "quoted" é\\path\n${'ab"c\\é€'.repeat(MB)}`;
  const start = (goal: string) =>
    makeEvent(root, "session_start", { sessionId: id, goal, agentName: "root", model: "m1", cwd: "/w" });
  writeFileSync(file, line({ ...start(`Goal "first" ${"g".repeat(2 * MB)}`), time: 1000 }));
  appendFileSync(file, line(makeEvent(root, "warning", { message: "x".repeat(24 * MB), code: "noise" })));
  appendFileSync(file, line(makeEvent(root, "session_end", { ...costing(0.25, big), sessionId: id })));
  appendFileSync(file, line(start("second")));
  appendFileSync(file, line(makeEvent(root, "session_end", { ...costing(0.5, big), sessionId: id })));
  return dir;
}
