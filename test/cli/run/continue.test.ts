/**
 * Continue and resume respect the workspace: `-c` continues this workspace's latest session (not a newer
 * one of another workspace), `--resume ID` from another workspace exits 2 naming the session's workspace,
 * `--resume ID --cwd DIR` runs it there, and every run ends with the command that continues it. `agent run`
 * in the test process (in-process.ts) against the fake server. That the printed command works as printed
 * when pasted into bash (bin/agent on PATH) is checked in test/e2e/run/continue.test.ts.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import {
  anthropicEnv,
  type E2eSandbox,
  makeE2eSandbox,
  parseJsonLines,
  type RunOutput,
  sessionIds,
  waitFor,
} from "../../e2e/support.ts";
import { type FakeLlmServer, startFakeLlmServer } from "../../support/fake-llm-server.ts";
import { runInProcess } from "./in-process.ts";

/** Each test makes two to four runs one after another: a bound well above that, for a loaded machine. */
const TEST_TIMEOUT_MS = 40_000;

let server: FakeLlmServer;
let sandbox: E2eSandbox;
/** Two workspaces of the same user (same state directory). */
let wsA: string;
let wsB: string;

beforeEach(async () => {
  server = await startFakeLlmServer();
  sandbox = makeE2eSandbox();
  wsA = realpathSync(sandbox.workspace);
  wsB = join(sandbox.dir, "other");
  mkdirSync(wsB);
  wsB = realpathSync(wsB);
});
afterEach(async () => {
  const pending = server.pending();
  await server.close();
  sandbox.cleanup();
  expect(pending).toBe(0);
});

function runIn(cwd: string, args: string[]): Promise<RunOutput> {
  return runInProcess(args, { env: anthropicEnv(sandbox, server), cwd });
}

/** Runs one goal answered with `answer` in `cwd`; returns the new session's id. */
async function sessionIn(cwd: string, goal: string, answer: string): Promise<string> {
  const before = new Set(sessionIds(sandbox));
  server.enqueue({ text: answer });
  const result = await runIn(cwd, ["run", goal]);
  expect(result.code).toBe(0);
  const id = sessionIds(sandbox).find((candidate) => !before.has(candidate));
  if (id === undefined) throw new Error(`no new session for ${goal}`);
  return id;
}

/** The text of every message the last request sent, joined. */
function lastRequestText(): string {
  return JSON.stringify(server.requests.at(-1)?.body);
}

describe("-c / --continue", () => {
  test(
    "continues the latest session of this workspace, not a newer one of another workspace",
    async () => {
      const idA = await sessionIn(wsA, "goal in A", "answer in A");
      const idB = await sessionIn(wsB, "goal in B", "answer in B");
      expect(idB).not.toBe(idA);
      server.enqueue({ text: "continued A" });
      const result = await runIn(wsA, ["run", "-c", "and now?"]);
      expect(result.code).toBe(0);
      expect(result.stdout).toBe("continued A\n");
      const sent = lastRequestText();
      expect(sent).toContain("goal in A");
      expect(sent).toContain("answer in A");
      expect(sent).not.toContain("goal in B");
      // Appended to A's transcript: no new session.
      expect(sessionIds(sandbox)).toHaveLength(2);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "with no session in this workspace: exit 2, naming the workspace",
    async () => {
      await sessionIn(wsB, "goal in B", "answer in B");
      const result = await runIn(wsA, ["run", "-c", "go on"]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`no session to continue in ${wsA}`);
      expect(result.stdout).toBe("");
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "-c and --resume together are a usage error",
    async () => {
      const result = await runIn(wsA, ["run", "-c", "--resume", "abc", "go"]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain("cannot be used together");
    },
    TEST_TIMEOUT_MS,
  );
});

describe("--resume and the workspace", () => {
  test(
    "a session of another workspace is refused with exit 2 naming it; --cwd there runs it",
    async () => {
      const idB = await sessionIn(wsB, "goal in B", "answer in B");
      const short = idB.slice(-6);
      const refused = await runIn(wsA, ["run", "--resume", short, "go on"]);
      expect(refused.code).toBe(2);
      expect(refused.stdout).toBe("");
      expect(refused.stderr).toContain(`session ${short} belongs to workspace ${wsB}`);
      expect(refused.stderr).toContain(`agent run --resume ${short} --cwd ${wsB}`);

      server.enqueue({ text: "continued B" });
      const there = await runIn(wsA, ["run", "--resume", short, "--cwd", wsB, "go on"]);
      expect(there.code).toBe(0);
      expect(there.stdout).toBe("continued B\n");
      expect(lastRequestText()).toContain("goal in B");
      // The run ends with the command that continues it, --cwd included as it is not this directory.
      expect(there.stderr).toContain(`continue: agent run --resume ${short} --cwd ${wsB}`);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "a run the provider refused (401) never started: no continue command, no resume_command",
    async () => {
      server.enqueue({ status: 401, errorMessage: "invalid x-api-key" });
      const text = await runIn(wsA, ["run", "hello"]);
      expect(text.code).toBe(4);
      expect(text.stderr).toContain("401");
      expect(text.stderr).not.toContain("continue:");
      server.enqueue({ status: 401, errorMessage: "invalid x-api-key" });
      const json = await runIn(wsA, ["run", "hello", "--output", "json"]);
      expect(json.code).toBe(4);
      const [record] = parseJsonLines(json.stdout);
      expect(record).toMatchObject({ status: "error", exit_code: 4 });
      expect(record).not.toHaveProperty("resume_command");
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "every run ends with its continue command; --output json carries it as resume_command",
    async () => {
      server.enqueue({ text: "first" });
      const text = await runIn(wsA, ["run", "hello"]);
      const [id] = sessionIds(sandbox);
      const short = id?.slice(-6) ?? "";
      expect(text.stderr).toContain(`continue: agent run --resume ${short}\n`);

      server.enqueue({ text: "second" });
      const json = await runIn(wsA, ["run", "--output", "json", "--resume", short, "again"]);
      expect(json.code).toBe(0);
      const [record] = parseJsonLines(json.stdout);
      expect(record).toMatchObject({ session_id: id, resume_command: `agent run --resume ${short}` });
    },
    TEST_TIMEOUT_MS,
  );
});

describe("a session in use", () => {
  test(
    "a second --resume of a session another run holds is refused: exit 2, naming the process; the first ends well",
    async () => {
      const id = await sessionIn(wsA, "first goal", "first answer");
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      server.enqueue({ text: "held answer", holdUntil: held });
      const before = server.requests.length;
      // The holding run runs in this process too, so the lock it takes names this process.
      const holder = runIn(wsA, ["run", "--resume", id, "keep going"]);
      // The holder has opened the transcript (and taken the lock) once its model request arrives.
      await waitFor(() => server.requests.length > before, "the holding run's model request");
      const refused = await runIn(wsA, ["run", "--resume", id, "--output", "json", "me too"]);
      release();
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(`session ${id} is in use by process ${process.pid}`);
      expect(refused.stderr).not.toMatch(/\n\s+at /); // one line, no stack trace
      const json = JSON.parse(refused.stdout) as {
        status?: string;
        error?: { kind?: string };
        exit_code?: number;
      };
      expect(json).toMatchObject({ status: "error", error: { kind: "session" }, exit_code: 2 });
      // No request from the refused run: only the holder's.
      expect(server.requests.length - before).toBe(1);
      const first = await holder;
      expect(first.code).toBe(0);
      expect(first.stdout).toBe("held answer\n");
      // Once the holder ended, the session can be resumed again.
      server.enqueue({ text: "third answer" });
      const again = await runIn(wsA, ["run", "--resume", id, "and again"]);
      expect(again.code).toBe(0);
      expect(again.stdout).toBe("third answer\n");
    },
    TEST_TIMEOUT_MS * 2, // four runs, one of them held
  );
});
