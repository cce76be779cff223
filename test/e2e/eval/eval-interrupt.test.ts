/**
 * SIGTERM to a real `agent eval` process while its checks run: the checks are killed at once (not after
 * their `check_timeout`), the report of what ran is still printed, and no check process outlives eval:
 * sandboxed or not, in the check's process group or `setsid` out of it, after one signal or two.
 * The checks are found by a token in their environment (/proc/PID/environ), so the test waits for the
 * event "the checks are running", never for the clock.
 */
import { expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { EvalReport } from "../../../src/cli/eval/report/eval-report.ts";
import { anthropicEnv, endsOrHung, freshServerAndSandbox, spawnAgent, waitFor } from "../support.ts";

// Two agent processes start; on a loaded machine that takes a while (waits end at events).
setDefaultTimeout(120_000);

const fixture = freshServerAndSandbox();

/** Pids of processes whose environment holds `token` (Linux /proc). */
function pidsWith(token: string): number[] {
  const needle = Buffer.from(token);
  const pids: number[] = [];
  for (const name of readdirSync("/proc")) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      if (readFileSync(`/proc/${pid}/environ`).includes(needle)) pids.push(pid);
    } catch {
      // gone, or not readable
    }
  }
  return pids;
}

/**
 * Two tasks, each with a check that sleeps for a minute in its group and once more `setsid` out of it:
 * one sandboxed (the default), one with `sandbox: off` (the suite is trusted on the command line).
 */
function writeSuite(token: string): string {
  const root = fixture.sandbox.dir;
  mkdirSync(join(root, "fixture"), { recursive: true });
  writeFileSync(join(root, "fixture", "a.txt"), "a\n");
  const check = `(setsid env ${token}=1 sleep 60 &); env ${token}=1 sleep 60`;
  const suite = join(root, "suite.yaml");
  writeFileSync(
    suite,
    [
      "defaults:",
      "  model: anthropic:claude-haiku-5-5",
      "  agent: code-reader",
      "tasks:",
      "  - id: boxed",
      "    goal: Say done (boxed).",
      "    workspace: fixture",
      `    checks: ["${check}"]`,
      "  - id: unboxed",
      "    goal: Say done (unboxed).",
      "    workspace: fixture",
      "    sandbox: off",
      `    checks: ["${check}"]`,
      "",
    ].join("\n"),
  );
  return suite;
}

function startEval(suite: string) {
  const { server, sandbox } = fixture;
  server.enqueue({ text: "done" });
  server.enqueue({ text: "done" });
  return spawnAgent(
    ["eval", suite, "--trust-suite", "-j", "2", "-o", "json", "--out", join(sandbox.dir, "out")],
    { env: anthropicEnv(sandbox, server), cwd: sandbox.dir },
  );
}

test("SIGTERM kills running checks at once, prints the report of what ran, and leaves no check behind", async () => {
  const token = `EVAL_SIGTERM_${process.pid}_ONE`;
  const running = startEval(writeSuite(token));
  // Both checks' two sleeps each: four processes carry the token.
  await waitFor(() => pidsWith(token).length >= 4, "both tasks' checks to be running", 60_000);
  running.proc.kill("SIGTERM");
  const result = await endsOrHung(running, 30_000, " (the checks were not stopped)");
  expect(result.code).toBe(130);
  expect(pidsWith(token)).toEqual([]);
  const report = JSON.parse(result.stdout) as EvalReport;
  expect(report.tasks.map((task) => task.id).sort()).toEqual(["boxed", "unboxed"]);
  for (const task of report.tasks) {
    expect(task.passed).toBe(false);
    expect(task.checks[0]).toMatchObject({ passed: false, exit_code: null, interrupted: true });
    expect(task.failures).toContain(`check \`${task.checks[0]?.name}\` was interrupted`);
  }
  expect(result.stderr).toContain(
    "interrupted: 2 of the suite's tasks ran (of 2; those stopped midway failed)",
  );
});

test("a second signal exits at once, and still no check outlives eval", async () => {
  const token = `EVAL_SIGTERM_${process.pid}_TWO`;
  const running = startEval(writeSuite(token));
  await waitFor(() => pidsWith(token).length >= 4, "both tasks' checks to be running", 60_000);
  running.proc.kill("SIGTERM");
  running.proc.kill("SIGTERM");
  const result = await endsOrHung(running, 30_000, " (the second signal did not end eval)");
  expect(result.code).toBe(130);
  expect(pidsWith(token)).toEqual([]);
});
