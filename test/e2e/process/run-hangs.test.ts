/**
 * Nothing the model asks for can hang the run or outlive it, seen from outside: bin/agent against the fake
 * server, the scripted model calling tools with hostile arguments in a hostile workspace. Each run must end
 * (a generous bound, never a timing) with the documented exit code, and leave no process behind.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeLlmServer } from "../../support/fake-llm-server.ts";
import { goneSoon } from "../../tools/helpers.ts";
import {
  anthropicEnv,
  type E2eSandbox,
  endsOrHung,
  freshServerAndSandbox,
  processRunning,
  type RunningAgent,
  sessionIds,
  spawnAgent,
  strayPidsKilledAfterEach,
  waitFor,
} from "../support.ts";

let server: FakeLlmServer;
let sandbox: E2eSandbox;
freshServerAndSandbox((s, b) => {
  server = s;
  sandbox = b;
});
const sleepers = strayPidsKilledAfterEach();

const TEST_TIMEOUT_MS = 60_000;

function start(args: string[]): RunningAgent {
  return spawnAgent(args, { env: anthropicEnv(sandbox, server), cwd: sandbox.workspace });
}

function transcriptHas(text: string): boolean {
  const [id] = sessionIds(sandbox);
  if (id === undefined) return false;
  const file = join(sandbox.sessionsDir, `${id}.jsonl`);
  return existsSync(file) && readFileSync(file, "utf8").includes(text);
}

function pidIn(file: string): number {
  const pid = Number(readFileSync(join(sandbox.workspace, file), "utf8").trim());
  sleepers.push(pid);
  return pid;
}

/** CPU time (user + system, all threads) a process has used, from /proc/<pid>/stat (clock ticks of 1/100 s). */
function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** Thousands of lines on which `(a+)+$` backtracks for about a second each. */
function writeBacktrackBait(): void {
  writeFileSync(join(sandbox.workspace, "bait.txt"), `${"a".repeat(64)}b\n`.repeat(4_000));
}

const BACKTRACKING_GREP = { toolCalls: [{ name: "grep", args: { pattern: "(a+)+$" } }] };

describe("a catastrophically backtracking grep", () => {
  test(
    "--timeout ends the run with exit 5",
    async () => {
      writeBacktrackBait();
      server.enqueue(BACKTRACKING_GREP);
      const result = await endsOrHung(
        // --timeout counts from the start of the process: 8 s leaves a loaded machine time to start the
        // run and send the request (the bait keeps the search going for minutes either way).
        start(["run", "--agent", "code-reader", "--timeout", "8", "find the pattern"]),
      );
      expect(result.code).toBe(5);
      expect(result.stderr).toContain("timeout");
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "SIGTERM ends the run with exit 130",
    async () => {
      writeBacktrackBait();
      server.enqueue(BACKTRACKING_GREP);
      const running = start(["run", "--agent", "code-reader", "find the pattern"]);
      await waitFor(() => transcriptHas('"kind":"tool_start"'), "the grep call to start");
      // The search is under way once the process has burnt CPU on it (an event, not a clock).
      await waitFor(() => cpuSeconds(running.proc.pid) >= 1.5, "the search to be running");
      running.proc.kill("SIGTERM");
      const result = await endsOrHung(running);
      expect(result.code).toBe(130);
    },
    TEST_TIMEOUT_MS,
  );
});

describe("a hostile workspace", () => {
  test(
    "a FIFO at .git/HEAD does not hang the start of a run",
    async () => {
      mkdirSync(join(sandbox.workspace, ".git"));
      const made = Bun.spawnSync(["mkfifo", join(sandbox.workspace, ".git", "HEAD")]);
      expect(made.exitCode).toBe(0);
      server.enqueue({ text: "Hello." });
      const result = await endsOrHung(start(["run", "--agent", "code-reader", "say hello"]));
      expect(result.code).toBe(0);
      expect(result.stdout).toBe("Hello.\n");
    },
    TEST_TIMEOUT_MS,
  );
});

/**
 * Unsandboxed, the daemon's pid (written by the command) is watched; under bubblewrap that pid is one of the
 * command's own PID namespace, so the host finds the daemon by its command line (`pgrep -f`, which sees the
 * processes inside). Either way the sweep by marker variable has to reach it.
 */
// The daemons' command lines carry this process's pid (`sleep 306.4242`): the sandboxed case finds its
// daemon by command line machine-wide, and another suite running beside this one has its own.
const PID = process.pid;
describe.each([
  { mode: "off", seconds: [`304.${PID}`, `305.${PID}`] },
  { mode: "workspace-write", seconds: [`306.${PID}`, `307.${PID}`] },
])("exec leaves nothing running after the run (--sandbox $mode)", ({ mode, seconds }) => {
  const [first = "0", second = "0"] = seconds;
  const daemonGone = async (marker: string): Promise<boolean> => {
    if (mode === "off") return goneSoon(pidIn("daemon.pid"));
    expect(readFileSync(join(sandbox.workspace, "daemon.pid"), "utf8").trim()).not.toBe("");
    for (let i = 0; i < 200 && processRunning(marker); i++) await Bun.sleep(50);
    return !processRunning(marker);
  };

  test(
    "a setsid daemon started by an approved command is gone when the run ends",
    async () => {
      server.enqueue(
        {
          toolCalls: [
            {
              name: "exec",
              args: { command: `setsid sh -c 'sleep ${first} & echo $! > daemon.pid'; sleep 0.2` },
            },
          ],
        },
        { text: "Started." },
      );
      const result = await endsOrHung(
        start(["run", "--agent", "command-runner", "--on-ask", "allow", "--sandbox", mode, "start it"]),
      );
      expect(result.code).toBe(0);
      expect(await daemonGone(`sleep ${first}`)).toBe(true);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "SIGTERM during the command ends its setsid daemon too",
    async () => {
      server.enqueue({
        toolCalls: [
          {
            name: "exec",
            args: { command: `setsid sh -c 'sleep ${second} & echo $! > daemon.pid'; sleep 120` },
          },
        ],
      });
      const running = start([
        "run",
        "--agent",
        "command-runner",
        "--on-ask",
        "allow",
        "--sandbox",
        mode,
        "start it",
      ]);
      await waitFor(() => existsSync(join(sandbox.workspace, "daemon.pid")), "the daemon to start");
      await waitFor(
        () => readFileSync(join(sandbox.workspace, "daemon.pid"), "utf8").trim() !== "",
        "its pid",
      );
      running.proc.kill("SIGTERM");
      const result = await endsOrHung(running);
      expect(result.code).toBe(130);
      expect(await daemonGone(`sleep ${second}`)).toBe(true);
    },
    TEST_TIMEOUT_MS,
  );
});
