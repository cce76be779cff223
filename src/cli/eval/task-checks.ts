/**
 * Runs a task's checks after its run: each is its command through the task's check shell
 * (check-sandbox.ts: bash in the sandbox, or `sh -c`) in the task's workspace copy, in its own process
 * group so a timeout kills everything it started. A check passes when it exits 0 within its
 * timeout. The last lines of its output are kept for the report (and the JUnit failure text).
 */
import { spawn } from "node:child_process";
import type { CheckShell } from "./check-sandbox.ts";
import type { TaskCheck } from "./suite-task.ts";

/** Characters of a check's output kept in the report. */
const OUTPUT_KEPT = 2000;

export interface CheckResult {
  name: string;
  passed: boolean;
  /** null when the check was killed (timeout) or could not start. */
  exit_code: number | null;
  timed_out: boolean;
  duration_ms: number;
  /** The end of its stdout and stderr, interleaved as they came. */
  output: string;
}

export async function runChecks(
  checks: readonly TaskCheck[],
  cwd: string,
  shell: CheckShell,
): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const check of checks) results.push(await runCheck(check, cwd, shell));
  return results;
}

function runCheck(check: TaskCheck, cwd: string, shell: CheckShell): Promise<CheckResult> {
  const started = performance.now();
  return new Promise((resolve) => {
    let output = "";
    let timedOut = false;
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString("utf8")).slice(-OUTPUT_KEPT);
    };
    const { file, args } = shell.command(check.run);
    const child = spawn(file, args, {
      cwd,
      env: shell.env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, check.timeoutS * 1000);
    let finished = false;
    const finish = (code: number | null, error?: Error) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      // Whatever the check left running in its group goes with it.
      killGroup(child.pid);
      resolve({
        name: check.name,
        passed: !timedOut && code === 0,
        exit_code: timedOut ? null : code,
        timed_out: timedOut,
        duration_ms: Math.round(performance.now() - started),
        output: error
          ? `cannot run the check: ${error.message}`
          : timedOut
            ? `${output}\n(timed out after ${check.timeoutS} s)`.trimStart()
            : output,
      });
    };
    child.on("error", (error) => finish(null, error));
    // The check's result is its shell's exit; a background process it left holding the output pipes
    // would delay "close" until the timeout, so the group is killed at exit and "close" then follows.
    let exitCode: number | null = null;
    child.on("exit", (code) => {
      exitCode = code;
      killGroup(child.pid);
    });
    child.on("close", () => finish(exitCode));
  });
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}
