/**
 * Issue 22: a 50 MB answer makes a huge transcript; `sessions list` must summarize it right while
 * reading it with bounded memory (it took 6 s and 970 MiB for 210 MB).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { emptyUsage } from "../../src/kernel/conversation/usage.ts";
import { makeEvent, type RunResult } from "../../src/kernel/run-events/events.ts";
import { listSessions } from "../../src/session/session-summary.ts";

const root = { agent: "root", name: "root", depth: 0 };
const id = "20261126-100000-bbbbbb";
let dir: string;

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

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "agent-huge-"));
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
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a transcript with lines of tens of megabytes", () => {
  test("is summarized right: turns, cost, status, preview and goal", () => {
    const [summary] = listSessions({ dir });
    expect(summary).toMatchObject({
      turns: 2,
      costUsd: 0.75,
      status: "success",
      cwd: "/w",
      time: 1000,
      answerPreview: 'Answer line one "quoted" é\\path',
    });
    expect(summary?.goal.startsWith('Goal "first" ggg')).toBe(true);
    expect(summary?.goal.length).toBeLessThan(70 * 1024);
  });

  test("is listed with bounded memory (peak RSS of a separate process)", () => {
    const script = `
      import { listSessions } from ${JSON.stringify(join(import.meta.dir, "../../src/session/session-summary.ts"))};
      const [s] = listSessions({ dir: ${JSON.stringify(dir)} });
      // VmHWM: the peak RSS of this process image (getrusage's maxrss survives exec: it would be the parent's).
      const hwm = /VmHWM:\\s+(\\d+) kB/.exec(require("node:fs").readFileSync("/proc/self/status", "utf8"));
      console.log(JSON.stringify({ turns: s.turns, maxRssKb: Number(hwm?.[1]) }));
    `;
    const run = Bun.spawnSync(["bun", "-e", script], { stdout: "pipe", stderr: "pipe" });
    expect(run.stderr.toString()).toBe("");
    const out = JSON.parse(run.stdout.toString()) as { turns: number; maxRssKb: number };
    expect(out.turns).toBe(2);
    // The file is about 50 MB; bun itself needs some 40 MB. Reading it whole took several times its size.
    expect(out.maxRssKb).toBeLessThan(100 * 1024);
  });
});
