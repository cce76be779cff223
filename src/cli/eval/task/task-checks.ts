/**
 * Runs a task's checks after its run: each is its command through the task's check shell
 * (check-sandbox.ts: bash in the sandbox, or `sh -c`) in the task's workspace copy, in its own process
 * group so a timeout kills everything it started. A check passes when it exits 0 within its
 * timeout. The last lines of its output are kept for the report (and the JUnit failure text).
 *
 * No check outlives eval: each carries the exec marker (AGENT_EXEC_ID, src/tools/exec/process-sweep.ts),
 * so what it started is found and killed even after leaving the group (`setsid`, `nohup … &`) when the
 * check ends, when `signal` aborts (the first Ctrl-C or SIGTERM: the check is killed at once and counted
 * as interrupted, and no further check starts), and when eval exits (a second signal's forced exit
 * included: the sweep's exit hook, and the groups still running, killed here).
 */
import { spawn } from "node:child_process";
import { EXEC_MARKER, newExecId, releaseExecId, sweepMarked } from "../../../tools/exec/process-sweep.ts";
import type { TaskCheck } from "../suite/suite-task.ts";
import type { CheckShell } from "./check-sandbox.ts";
import { killOnExit } from "./kill-on-exit.ts";

/** Characters of a check's output kept in the report. */
const OUTPUT_KEPT = 2000;

export interface CheckResult {
  name: string;
  passed: boolean;
  /** null when the check was killed (timeout) or could not start. */
  exit_code: number | null;
  timed_out: boolean;
  /** Killed by Ctrl-C or SIGTERM before it ended. */
  interrupted?: boolean;
  duration_ms: number;
  /** The end of its stdout and stderr, interleaved as they came. */
  output: string;
}

/** Process groups of checks still running: killed if eval exits while they run. */
const runningGroups = killOnExit<number>((group) => killGroup(group));

export async function runChecks(
  checks: readonly TaskCheck[],
  cwd: string,
  shell: CheckShell,
  signal?: AbortSignal,
): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const check of checks) {
    if (signal?.aborted) break;
    results.push(await runCheck(check, cwd, shell, signal));
  }
  return results;
}

function runCheck(
  check: TaskCheck,
  cwd: string,
  shell: CheckShell,
  signal?: AbortSignal,
): Promise<CheckResult> {
  const started = performance.now();
  const execId = newExecId();
  return new Promise((resolve) => {
    let output = "";
    let timedOut = false;
    let interrupted = false;
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString("utf8")).slice(-OUTPUT_KEPT);
    };
    const { file, args } = shell.command(check.run);
    const child = spawn(file, args, {
      cwd,
      env: { ...shell.env, [EXEC_MARKER]: execId },
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    if (child.pid !== undefined) runningGroups.add(child.pid);
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    const stopAll = () => {
      killGroup(child.pid);
      sweepMarked(execId);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stopAll();
    }, check.timeoutS * 1000);
    const onAbort = () => {
      interrupted = true;
      stopAll();
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    let finished = false;
    const finish = (code: number | null, error?: Error) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      // Whatever the check left running, in its group or out of it, goes with it.
      stopAll();
      if (child.pid !== undefined) runningGroups.delete(child.pid);
      releaseExecId(execId);
      const killed = timedOut || interrupted;
      resolve({
        name: check.name,
        passed: !killed && code === 0,
        exit_code: killed ? null : code,
        timed_out: timedOut,
        ...(interrupted ? { interrupted } : {}),
        duration_ms: Math.round(performance.now() - started),
        output: error
          ? `cannot run the check: ${error.message}`
          : timedOut
            ? `${output}\n(timed out after ${check.timeoutS} s)`.trimStart()
            : interrupted
              ? `${output}\n(interrupted: eval was stopped)`.trimStart()
              : output,
      });
    };
    if (signal?.aborted) onAbort();
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
