/**
 * The continue command a run prints works as printed: pasted into bash, with this checkout's bin/agent on
 * PATH, it continues the session. The rest of continue and resume (the workspace's latest session, another
 * workspace's refused, the continue command and resume_command, a session in use) is checked in the test
 * process: test/cli/run/continue.test.ts.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, realpathSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { type FakeLlmServer, startFakeLlmServer } from "../../support/fake-llm-server.ts";
import {
  AGENT_BIN,
  anthropicEnv,
  type E2eSandbox,
  makeE2eSandbox,
  type RunOutput,
  sessionIds,
  spawnAgent,
} from "../support.ts";

/** The test spawns two runs one after another: a bound well above that, for a loaded machine. */
const TEST_TIMEOUT_MS = 40_000;

let server: FakeLlmServer;
let sandbox: E2eSandbox;
/** The sandbox's workspace, as its real path. */
let wsA: string;

beforeEach(async () => {
  server = await startFakeLlmServer();
  sandbox = makeE2eSandbox();
  wsA = realpathSync(sandbox.workspace);
});
afterEach(async () => {
  const pending = server.pending();
  await server.close();
  sandbox.cleanup();
  expect(pending).toBe(0);
});

function runIn(cwd: string, args: string[]): Promise<RunOutput> {
  return spawnAgent(args, { env: anthropicEnv(sandbox, server), cwd }).done;
}

/** The text of every message the last request sent, joined. */
function lastRequestText(): string {
  return JSON.stringify(server.requests.at(-1)?.body);
}

describe("--resume and the workspace", () => {
  test(
    "the printed continue command works as printed: pasted into bash, it continues the session (issue 21, item 9)",
    async () => {
      server.enqueue({ text: "first answer" });
      const first = await runIn(wsA, ["run", "remember the word teal"]);
      expect(first.code).toBe(0);
      const printed = /continue: (agent run --resume \S+)\n/.exec(first.stderr)?.[1];
      if (printed === undefined) throw new Error(`no continue command in: ${first.stderr}`);
      expect(printed).not.toContain("…");
      server.enqueue({ text: "continued" });
      // bash parses the line exactly as printed; `agent` is this checkout's bin/agent on PATH.
      const bin = join(sandbox.dir, "bin");
      mkdirSync(bin);
      symlinkSync(AGENT_BIN, join(bin, "agent"));
      const env = anthropicEnv(sandbox, server);
      const pasted = Bun.spawn(["bash", "-c", printed], {
        cwd: wsA,
        env: { ...env, PATH: `${bin}:${env.PATH ?? ""}` },
        stdin: "ignore",
        stdout: "pipe",
        stderr: "pipe",
      });
      const [stdout, code] = await Promise.all([
        new Response(pasted.stdout as ReadableStream<Uint8Array>).text(),
        pasted.exited,
      ]);
      expect(code).toBe(0);
      expect(stdout).toBe("continued\n");
      expect(sessionIds(sandbox)).toHaveLength(1);
      expect(lastRequestText()).toContain("remember the word teal");
      expect(lastRequestText()).toContain("Continue where you left off.");
    },
    TEST_TIMEOUT_MS,
  );
});
