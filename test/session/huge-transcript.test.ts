/**
 * Issue 22: a 50 MB answer makes a huge transcript; `sessions list` must summarize it right while
 * reading it with bounded memory (it took 6 s and 970 MiB for 210 MB; the memory is measured in a
 * separate process, test/e2e/session/huge-transcript-memory.test.ts).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { listSessions } from "../../src/session/session-summary.ts";
import { writeHugeTranscript } from "../support/huge-transcript.ts";

let dir: string;

beforeAll(() => {
  dir = writeHugeTranscript();
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
});
