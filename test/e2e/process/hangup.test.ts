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

describe("SIGHUP (the terminal went away)", () => {
  test(
    "agent run -o json --sandbox off: exit 129, one result object, session_end, the daemon reaped",
    async () => {
      server.enqueue(daemonCall(308));
      const running = spawnAgent(
        ["run", "--agent", "command-runner", "--on-ask", "allow", "--sandbox", "off", "-o", "json", "go"],
        { env: anthropicEnv(sandbox, server), cwd: sandbox.workspace },
      );
      const daemon = await daemonStarted();
      running.proc.kill("SIGHUP");
      const result = await endsOrHung(running);
      expect(result.code).toBe(129);
      const objects = parseJsonLines(result.stdout);
      expect(objects).toHaveLength(1);
      expect(objects[0]).toMatchObject({ type: "result", status: "interrupted", exit_code: 129 });
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
      const running = spawnAgent(["helper", "--tools", "exec", "--sandbox", "off", "--json", "go"], {
        env: anthropicEnv(sandbox, server),
        cwd: sandbox.workspace,
      });
      const daemon = await daemonStarted();
      running.proc.kill("SIGHUP");
      const result = await endsOrHung(running);
      expect(result.code).toBe(129);
      const objects = parseJsonLines(result.stdout);
      expect(objects).toHaveLength(1);
      expect(objects[0]).toMatchObject({ type: "result", status: "interrupted", exit_code: 129 });
      expect(await goneSoon(daemon)).toBe(true);
    },
    TEST_TIMEOUT_MS,
  );
});
