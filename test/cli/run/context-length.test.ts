/**
 * A request longer than the model accepts, through `agent run` in the test process against the fake
 * Anthropic server, which refuses it as the real API does (fake-rules-input-limit.ts: 400 "prompt is too
 * long: N tokens > M maximum"). The run compacts once (a last turn too large to keep has its results
 * cut) and sends the turn again instead of failing; refused again after that, it ends `context_window`
 * (exit 5), never a provider error.
 */
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseJsonLines } from "../../e2e/support.ts";
import { fakeInputTokens } from "../../support/fake-rules-input-limit.ts";
import { inProcessFixture, runInProcess } from "./in-process.ts";

const e2e = inProcessFixture();

const SUMMARY = "## Goal\nread the files\n## Decisions\nnone\n## Files touched\nnone\n## Open threads\nnone";
/** claude-haiku-4-5 accepts 200,000 input tokens (its catalog window). */
const LIMIT = 200_000;

/** 18 files of about 45,000 characters: one turn reading them all is past the limit by itself. */
function writeFiles(): string[] {
  const names: string[] = [];
  for (let n = 1; n <= 18; n++) {
    const name = `big${n}.txt`;
    writeFileSync(join(e2e.sandbox.workspace, name), `${`file ${n} `.padEnd(99, "z")}\n`.repeat(450));
    names.push(name);
  }
  return names;
}

function run(goal: string) {
  return e2e.runAgent([
    "run",
    goal,
    "--agent",
    "command-runner",
    "-m",
    "anthropic:claude-haiku-4-5",
    "--output",
    "stream-json",
  ]);
}

test("a 400 'prompt is too long' compacts once and the turn is sent again", async () => {
  const names = writeFiles();
  e2e.server.enqueue(
    { toolCalls: names.map((path) => ({ name: "read_file", args: { path } })) },
    { text: SUMMARY },
    { text: "done" },
  );
  const result = await run("read the files");
  expect(result.code).toBe(0);
  const lines = parseJsonLines(result.stdout);
  expect(lines.at(-1)).toMatchObject({ type: "result", status: "success", answer: "done" });
  const requests = e2e.server.requests;
  // The model, the refused request, the summariser, the same turn again.
  expect(requests.map((r) => r.model)).toEqual([
    "claude-haiku-4-5",
    "claude-haiku-4-5",
    "claude-haiku-5-5",
    "claude-haiku-4-5",
  ]);
  expect(fakeInputTokens({ body: requests[1]?.body })).toBeGreaterThan(LIMIT);
  expect(fakeInputTokens({ body: requests[3]?.body })).toBeLessThan(LIMIT);
  const warning = lines.find((l) => l.type === "warning" && l.code === "context_window");
  expect(String(warning?.message)).toContain("prompt is too long");
  // The last turn is kept with its 18 results cut to fit.
  expect(lines.find((l) => l.type === "compaction")).toMatchObject({ reason: "context_window", kept: 19 });
  expect(lines.some((l) => l.type === "error")).toBe(false);
});

test("refused again after the compaction, the run ends context_window (exit 5), not a provider error", async () => {
  // A goal past the limit by itself: nothing to compact or cut, so the one retry is refused too.
  const goal = `summarise: ${"w".repeat(LIMIT * 4)}`;
  const result = await run(goal);
  expect(result.code).toBe(5);
  const lines = parseJsonLines(result.stdout);
  expect(lines.at(-1)).toMatchObject({ type: "result", status: "limit", finish_reason: "context_window" });
});

test("GPT-6's maximum input (922,000), not its 1,050,000 window, sets when the run compacts", async () => {
  // Six turns of about 3,000 characters: the tail kept is the part of them that fits.
  for (let n = 1; n <= 6; n++)
    writeFileSync(join(e2e.sandbox.workspace, `f${n}.txt`), `content ${n}\n${"pad ".repeat(750)}\n`);
  const read = (n: number, input = 50) => ({
    toolCalls: [{ name: "read_file", args: { path: `f${n}.txt` } }],
    usage: { input, output: 10 },
  });
  e2e.server.enqueue(
    read(1),
    read(2),
    read(3),
    read(4),
    read(5),
    // 760,000 reported: past 0.8 of 922,000 (737,600), under 0.8 of the window (840,000).
    read(6, 760_000),
    { text: SUMMARY },
    { text: "done" },
  );
  const env = e2e.sandbox.env({
    OPENAI_API_KEY: "sk-test-max-input-0001",
    OPENAI_BASE_URL: e2e.server.openaiBaseUrl,
  });
  const result = await runInProcess(
    [
      "run",
      "read three files",
      "--agent",
      "command-runner",
      "-m",
      "openai:gpt-6-sol",
      "--output",
      "stream-json",
    ],
    { env, cwd: e2e.sandbox.workspace },
  );
  expect(result.code).toBe(0);
  const compaction = parseJsonLines(result.stdout).find((l) => l.type === "compaction");
  expect(compaction).toMatchObject({ reason: "threshold", input_tokens: 760_000, context_window: 922_000 });
});
