/** Checks: exit 0 passes, anything else fails with its output kept; a timeout kills the check's whole group. */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CheckShell } from "../../../src/cli/eval/task/check-sandbox.ts";
import { runChecks } from "../../../src/cli/eval/task/task-checks.ts";

const dir = mkdtempSync(join(tmpdir(), "agent-eval-checks-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const shell: CheckShell = {
  command: (command) => ({ file: "sh", args: ["-c", command] }),
  env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
};

test("exit codes, output and the working directory", async () => {
  const results = await runChecks(
    [
      { name: "ok", run: "pwd", timeoutS: 30 },
      { name: "fails", run: "echo broken >&2; exit 3", timeoutS: 30 },
    ],
    dir,
    shell,
  );
  expect(results.map(({ duration_ms: _, ...rest }) => rest)).toEqual([
    { name: "ok", passed: true, exit_code: 0, timed_out: false, output: `${dir}\n` },
    { name: "fails", passed: false, exit_code: 3, timed_out: false, output: "broken\n" },
  ]);
});

test("a background process left holding the output does not hold the check; a timeout kills the group", async () => {
  const marker = `agent-eval-check-${process.pid}`;
  const [background, slow] = await runChecks(
    [
      { name: "background", run: `sleep 300 & echo started`, timeoutS: 60 },
      { name: "slow", run: `sh -c 'sleep 300; : ${marker}' & wait`, timeoutS: 0.5 },
    ],
    dir,
    shell,
  );
  expect(background).toMatchObject({ passed: true, exit_code: 0, output: "started\n" });
  expect(slow).toMatchObject({ passed: false, exit_code: null, timed_out: true });
  expect(slow?.output).toContain("(timed out after 0.5 s)");
  expect(Bun.spawnSync(["pgrep", "-f", marker]).exitCode).toBe(1);
});
