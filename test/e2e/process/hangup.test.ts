/**
 * A closed terminal or SSH session sends SIGHUP: the run must end as it does on SIGTERM, seen from the
 * outside through bin/agent against the fake server. The exec's processes are reaped (also unsandboxed),
 * the transcript is closed with session_end, JSON mode prints its one result object, and the exit code is
 * 129 (128 + SIGHUP), as documented.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeLlmServer } from "../../support/fake-llm-server.ts";
import { goneSoon } from "../../tools/helpers.ts";
import {
  anthropicEnv,
  type E2eSandbox,
  endsOrHung,
  freshServerAndSandbox,
  onlyTranscriptText,
  parseJsonLines,
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

/** A command that leaves a setsid daemon (its pid in daemon.pid) and then blocks. */
function daemonCall(seconds: number) {
  return {
    toolCalls: [
      {
        name: "exec",
        args: { command: `setsid sh -c 'sleep ${seconds} & echo $! > daemon.pid'; sleep 120` },
      },
    ],
  };
}

async function daemonStarted(): Promise<number> {
  const file = join(sandbox.workspace, "daemon.pid");
  await waitFor(() => existsSync(file) && readFileSync(file, "utf8").trim() !== "", "the daemon to start");
  const pid = Number(readFileSync(file, "utf8").trim());
  sleepers.push(pid);
  return pid;
}

/** Starts `agent ARGS`, sends it SIGHUP once its exec call's daemon runs; its output and the daemon's pid. */
async function hungUpOnceTheDaemonRuns(args: string[]) {
  const running = spawnAgent(args, { env: anthropicEnv(sandbox, server), cwd: sandbox.workspace });
  const daemon = await daemonStarted();
  running.proc.kill("SIGHUP");
  return { result: await endsOrHung(running), daemon };
}

/** stdout is exactly one JSON object: the result of an interrupted run, exit code 129. */
function expectOneInterruptedResult(stdout: string): void {
  const objects = parseJsonLines(stdout);
  expect(objects).toHaveLength(1);
  expect(objects[0]).toMatchObject({ type: "result", status: "interrupted", exit_code: 129 });
}

describe("SIGHUP (the terminal went away)", () => {
  test(
    "agent run -o json --sandbox off: exit 129, one result object, session_end, the daemon reaped",
    async () => {
      server.enqueue(daemonCall(308));
      const { result, daemon } = await hungUpOnceTheDaemonRuns(
        "run --agent command-runner --on-ask allow --sandbox off -o json go".split(" "),
      );
      expect(result.code).toBe(129);
      expectOneInterruptedResult(result.stdout);
      const kinds = parseJsonLines(onlyTranscriptText(sandbox)).map((record) => record.kind);
      expect(kinds.at(-1)).toBe("session_end");
      expect(await goneSoon(daemon)).toBe(true);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "agent helper --json with exec: exit 129 and its one result object",
    async () => {
      server.enqueue(daemonCall(309));
      const { result, daemon } = await hungUpOnceTheDaemonRuns(
        "helper --tools exec --sandbox off --json go".split(" "),
      );
      expect(result.code).toBe(129);
      expectOneInterruptedResult(result.stdout);
      expect(await goneSoon(daemon)).toBe(true);
    },
    TEST_TIMEOUT_MS,
  );
});
