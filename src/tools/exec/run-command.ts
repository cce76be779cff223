/**
 * Runs a shell command in its own process group (`bash -c`, detached), capturing combined output with a
 * cap, and ends the whole group on timeout, on abort, and when the shell itself exits (background jobs do
 * not outlive the command). Processes that left the group (setsid, daemons) are found by the call's marker
 * variable and killed too (process-sweep.ts; Linux), also when this process exits first. With a sandbox
 * (sandbox.ts) the shell runs inside bwrap: bwrap leads the group, `--die-with-parent` and the PID namespace
 * end everything inside when bwrap ends, and the marker still reaches every process inside (the host's
 * /proc lists them with their environment).
 */

import { spawn } from "node:child_process";
import { EXEC_MARKER, newExecId, releaseExecId, sweepMarked } from "./process-sweep.ts";
import { type ExecSandbox, sandboxedBash } from "./sandbox.ts";

export interface RunCommandOptions {
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  signal: AbortSignal;
  /** Bytes of output kept (the start and the end; the middle is cut). */
  outputLimit: number;
  /** Text written to the command's stdin (hooks read their event there); stdin is empty otherwise. */
  input?: string;
  /** Keep stderr apart from stdout (`stderr` in the result) instead of interleaving them. */
  separateStderr?: boolean;
  /** Run inside this sandbox; unsandboxed when absent. */
  sandbox?: ExecSandbox | undefined;
  /** Called with each chunk of stdout or stderr as it arrives (a live view; the result has it all). */
  onOutput?: (chunk: Buffer) => void;
}

export interface CommandResult {
  /** The shell's exit code; null when it was ended by a signal. */
  exitCode: number | null;
  /** The signal that ended the shell, if any. */
  exitSignal: string | null;
  /** stdout and stderr interleaved as they arrived, with a note where the middle was cut. */
  output: string;
  /** Bytes of output that were cut. */
  cutBytes: number;
  timedOut: boolean;
  aborted: boolean;
  durationMs: number;
  /** The command could not be started at all. */
  spawnError?: string;
  /** stderr alone, when `separateStderr` was asked for (`output` then holds stdout). */
  stderr?: string;
}

/** After SIGTERM, how long the group has before SIGKILL. */
const KILL_GRACE_MS = 1_000;
/** After the shell exits, how long background holders of its output may keep writing before the group ends. */
const DRAIN_MS = 200;
/** After the final SIGKILL, how long to wait for the pipes before giving up on them. */
const PIPE_GIVE_UP_MS = 2_000;

/**
 * `--norc` when stdin is piped: Bun may hand the child a socket for it, and bash run with a socket on
 * stdin takes itself for a remote shell and reads ~/.bashrc (bash(1), INVOCATION: "Bash attempts to
 * determine when it is being run with its standard input connected to a network connection ... it reads
 * and executes commands from ~/.bashrc ... The --norc option may be used to inhibit this behavior").
 */
function norc(options: RunCommandOptions): string[] {
  return options.input === undefined ? [] : ["--norc"];
}

export function runCommand(command: string, options: RunCommandOptions): Promise<CommandResult> {
  const started = Date.now();
  const output = new OutputCollector(options.outputLimit);
  const errors = options.separateStderr ? new OutputCollector(options.outputLimit) : output;
  const execId = newExecId();
  return new Promise((resolve) => {
    const { file, args } = options.sandbox
      ? sandboxedBash(options.sandbox, options.cwd, command, options.env.PATH ?? "")
      : { file: "bash", args: [...norc(options), "-c", command] };
    const child = spawn(file, args, {
      cwd: options.cwd,
      env: { ...options.env, [EXEC_MARKER]: execId },
      detached: true,
      stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    });
    if (options.input !== undefined) {
      // A command that never reads its stdin closes the pipe early: that is not a failure of the call.
      child.stdin?.on("error", () => {});
      child.stdin?.end(options.input);
    }
    let exitCode: number | null = null;
    let exitSignal: string | null = null;
    let ending: "timeout" | "abort" | null = null;
    let settled = false;
    const timers: ReturnType<typeof setTimeout>[] = [];
    const later = (ms: number, fn: () => void) => timers.push(setTimeout(fn, ms));

    const killGroup = (signal: NodeJS.Signals) => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, signal);
      } catch {
        // ESRCH: the group is already gone.
      }
    };
    /** Ends everything the call started: its process group, and whatever left it. */
    const killAll = () => {
      killGroup("SIGKILL");
      sweepMarked(execId);
    };
    const terminate = (why: "timeout" | "abort") => {
      if (ending !== null || settled) return;
      ending = why;
      killGroup("SIGTERM");
      later(KILL_GRACE_MS, killAll);
    };
    const onAbort = () => terminate("abort");

    const settle = (spawnError?: string) => {
      if (settled) return;
      settled = true;
      killAll();
      releaseExecId(execId);
      for (const t of timers) clearTimeout(t);
      options.signal.removeEventListener("abort", onAbort);
      const { text, cutBytes } = output.result();
      resolve({
        exitCode,
        exitSignal,
        output: text,
        cutBytes,
        timedOut: ending === "timeout",
        aborted: ending === "abort",
        durationMs: Date.now() - started,
        ...(spawnError === undefined ? {} : { spawnError }),
        ...(errors === output ? {} : { stderr: errors.result().text }),
      });
    };

    child.stdout?.on("data", (chunk: Buffer) => {
      output.push(chunk);
      options.onOutput?.(chunk);
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      errors.push(chunk);
      options.onOutput?.(chunk);
    });
    child.on("error", (error) => settle(error.message));
    child.on("exit", (code, signal) => {
      exitCode = code;
      exitSignal = signal;
      if (settled) return;
      later(DRAIN_MS, () => {
        killAll();
        later(PIPE_GIVE_UP_MS, () => {
          child.stdout?.destroy();
          child.stderr?.destroy();
          settle();
        });
      });
    });
    child.on("close", () => settle());

    later(options.timeoutMs, () => terminate("timeout"));
    if (options.signal.aborted) terminate("abort");
    else options.signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** Keeps the first third and the last two thirds of `limit` bytes of a stream, counting what is cut. */
class OutputCollector {
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private cut = 0;
  private readonly headLimit: number;
  private readonly tailLimit: number;

  constructor(limit: number) {
    this.headLimit = Math.floor(limit / 3);
    this.tailLimit = limit - this.headLimit;
  }

  push(chunk: Buffer): void {
    let rest = chunk;
    if (this.headBytes < this.headLimit) {
      const take = rest.subarray(0, this.headLimit - this.headBytes);
      this.head.push(take);
      this.headBytes += take.length;
      rest = rest.subarray(take.length);
    }
    if (rest.length === 0) return;
    this.tail.push(rest);
    this.tailBytes += rest.length;
    while (this.tailBytes > this.tailLimit) {
      const first = this.tail[0];
      if (first === undefined) break;
      const excess = this.tailBytes - this.tailLimit;
      if (first.length <= excess) {
        this.tail.shift();
        this.tailBytes -= first.length;
        this.cut += first.length;
      } else {
        this.tail[0] = first.subarray(excess);
        this.tailBytes -= excess;
        this.cut += excess;
      }
    }
  }

  result(): { text: string; cutBytes: number } {
    const head = Buffer.concat(this.head).toString("utf8");
    const tail = Buffer.concat(this.tail).toString("utf8");
    if (this.cut === 0) return { text: head + tail, cutBytes: 0 };
    const note = `\n\n[output truncated: ${this.cut} bytes cut from the middle]\n\n`;
    return { text: head + note + tail, cutBytes: this.cut };
  }
}
