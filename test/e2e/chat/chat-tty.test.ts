/**
 * `agent chat` (and `agent` alone) on a real pseudo-terminal (tmux, see terminal.ts): several messages on
 * one conversation, approvals inside a turn, Ctrl-C interrupting a turn without leaving, Ctrl-D quitting
 * with exit 0, slash commands; and `agent chat` without a terminal is a usage error.
 */
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeLlmServer, FakeTurn } from "../../support/fake-llm-server.ts";
import {
  anthropicEnv,
  freshServer,
  makeE2eSandbox,
  onlyTranscriptText,
  runAgentIn,
  runInFreshSandbox,
  sandboxAfterRun,
  sessionIds,
  spawnAgent,
  transcriptRecords,
  waitFor,
} from "../support.ts";
import { startTerminal, TEST_TIMEOUT_MS, tmux, withTerminal } from "../tmux.ts";

let server: FakeLlmServer;
freshServer((s) => {
  server = s;
});

/** root delegates to code-editor, which asks to write `path`; then the child and root answer. */
function writeTurns(path: string, rootAnswer = "Done."): FakeTurn[] {
  return [
    { toolCalls: [{ name: "code-editor", args: { goal: `Create ${path}` } }] },
    { toolCalls: [{ name: "write_file", args: { path, content: "Hello\n" } }] },
    { text: `Created ${path}.` },
    { text: rootAnswer },
  ];
}

/** The processes whose parent is `pid` (from /proc: Linux, where the tmux tests run). */
function childPids(pid: number): number[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        // Field 4 of /proc/PID/stat, after the parenthesised command name, is the parent's pid.
        const stat = readFileSync(`/proc/${name}/stat`, "utf8");
        return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** The input box is on screen (its key hint line). */
const INPUT = /Enter send/;

test(
  "two messages in a row on one conversation: the second request carries the first exchange; Ctrl-D quits with 0",
  async () => {
    server.enqueue({ text: "Hello there, first answer." }, { text: "Second answer." });
    await withTerminal(["chat", "first question"], { server }, async (run) => {
      await run.waitForScreen(/Hello there, first answer\./, "the first answer");
      await run.waitForScreen(INPUT, "the input box");
      run.send("second question");
      await run.waitForScreen(/Second answer\./, "the second answer");
      await run.waitForScreen(INPUT, "the input box again");
      const second = JSON.stringify(server.requests[1]?.body);
      expect(second).toContain("first question");
      expect(second).toContain("Hello there, first answer.");
      expect(second).toContain("second question");
      expect(await run.exitAfter("C-d")).toBe(0);
      // Both turns are in one transcript, the second marked as continuing it; the way back is printed.
      const records = transcriptRecords(onlyTranscriptText(run.sandbox));
      const starts = records.filter((r) => r.kind === "session_start" && r.depth === 0);
      expect(starts.map((s) => s.data.resumed === true)).toEqual([false, true]);
      const [id] = sessionIds(run.sandbox);
      expect(run.screen()).toContain(`continue: agent chat --resume ${id?.slice(-6)}`);
      expect(server.pending()).toBe(0);
    });
  },
  TEST_TIMEOUT_MS,
);

test(
  "`agent` alone opens the chat; an approval inside a turn is asked and answered there",
  async () => {
    server.enqueue(...writeTurns("hello.txt", "Wrote hello.txt."));
    await withTerminal([], { server }, async (run) => {
      await run.waitForScreen(INPUT, "the input box");
      run.send("write hello.txt");
      await run.waitForScreen(/wants to run write_file/, "the approval prompt");
      run.press("y");
      await run.waitForScreen(/Wrote hello\.txt\./, "the answer");
      await run.waitForScreen(INPUT, "the input box again");
      expect(readFileSync(join(run.sandbox.workspace, "hello.txt"), "utf8")).toBe("Hello\n");
      expect(await run.exitAfter("C-d")).toBe(0);
    });
  },
  TEST_TIMEOUT_MS,
);

test(
  "Ctrl-C interrupts the running turn (waiting at its approval prompt) without leaving the chat",
  async () => {
    // The interrupted turn asks for nothing after the prompt; the next message is answered at once.
    server.enqueue(...writeTurns("a.txt").slice(0, 2), { text: "After the interruption." });
    await withTerminal(["chat", "write a.txt"], { server }, async (run) => {
      await run.waitForScreen(/wants to run write_file/, "the approval prompt");
      run.press("C-c");
      await run.waitForScreen(/interrupted/, "the interrupted turn's status");
      await run.waitForScreen(INPUT, "the input box after the interruption");
      run.send("go on");
      await run.waitForScreen(/After the interruption\./, "the next turn's answer");
      await run.waitForScreen(INPUT, "the input box again");
      expect(await run.exitAfter("C-d")).toBe(0);
      expect(server.pending()).toBe(0);
    });
  },
  TEST_TIMEOUT_MS,
);

test(
  "slash commands: /help lists them, /model shows the model, /cost the totals, /quit leaves with 0",
  async () => {
    await withTerminal(["chat"], { server }, async (run) => {
      await run.waitForScreen(INPUT, "the input box");
      run.send("/help");
      await run.waitForScreen(/\/clear\s+start a new conversation/, "the help");
      run.send("/model");
      await run.waitForScreen(/model: anthropic:/, "the model");
      run.send("/cost");
      await run.waitForScreen(/0 turns · 0 tokens/, "the totals");
      run.send("/compact");
      await run.waitForScreen(/nothing compacted: not enough turns to compact/, "the /compact answer");
      run.send("/quit");
      expect(await run.exitStatus()).toBe(0);
      expect(server.requests).toHaveLength(0);
    });
  },
  TEST_TIMEOUT_MS,
);

test(
  "/model NAME switches the next messages' model; /clear starts a new conversation in a new session",
  async () => {
    server.enqueue({ text: "First answer." }, { text: "Fresh answer." });
    await withTerminal(["chat"], { server }, async (run) => {
      await run.waitForScreen(INPUT, "the input box");
      run.send("/model fast");
      const switched = await run.waitForScreen(/model for the next messages: anthropic:\S+/, "the switch");
      const model = /model for the next messages: anthropic:(\S+)/.exec(switched)?.[1];
      run.send("remember the word zebra");
      await run.waitForScreen(/First answer\./, "the first answer");
      await run.waitForScreen(INPUT, "the input box again");
      expect((server.requests[0]?.body as { model?: string } | undefined)?.model).toBe(model);
      run.send("/clear");
      await run.waitForScreen(/new conversation · session \S+/, "the /clear note");
      run.send("which word?");
      await run.waitForScreen(/Fresh answer\./, "the answer in the new conversation");
      await run.waitForScreen(INPUT, "the input box once more");
      // The new conversation starts from nothing, in a transcript of its own.
      const fresh = JSON.stringify(server.requests[1]?.body);
      expect(fresh).toContain("which word?");
      expect(fresh).not.toContain("zebra");
      expect(sessionIds(run.sandbox)).toHaveLength(2);
      expect(await run.exitAfter("C-d")).toBe(0);
    });
  },
  TEST_TIMEOUT_MS,
);

test(
  "agent chat -c continues this workspace's latest session, run or chat, in the same transcript",
  async () => {
    const sandbox = await sandboxAfterRun(server, "the goal of the run", "The answer of the run.");
    server.enqueue({ text: "Continued in the chat." });
    await withTerminal(["chat", "-c"], { server, sandbox }, async (run) => {
      await run.waitForScreen(/continuing session \S+ \(\d+ messages\)/, "the continue note");
      run.send("and then?");
      await run.waitForScreen(/Continued in the chat\./, "the answer");
      const sent = JSON.stringify(server.requests[1]?.body);
      expect(sent).toContain("the goal of the run");
      expect(sent).toContain("The answer of the run.");
      expect(sessionIds(sandbox)).toHaveLength(1);
      await run.waitForScreen(INPUT, "the input box again");
      expect(await run.exitAfter("C-d")).toBe(0);
    });
  },
  TEST_TIMEOUT_MS,
);

test(
  "SIGTERM between turns ends the chat (never ignored), with exit 0",
  async () => {
    await withTerminal(["chat"], { server }, async (run) => {
      await run.waitForScreen(INPUT, "the input box");
      // The pane's shell runs the agent as its child.
      const shell = tmux("list-panes", "-t", run.name, "-F", "#{pane_pid}").trim();
      const [agentPid] = childPids(Number(shell));
      expect(agentPid).toBeGreaterThan(0);
      process.kill(agentPid ?? 0, "SIGTERM");
      expect(await run.exitStatus()).toBe(0);
    });
  },
  TEST_TIMEOUT_MS,
);

test("`agent chat` without a terminal exits 2 and points to agent run", async () => {
  const result = await runInFreshSandbox(server, ["chat", "hello"]);
  expect(result.code).toBe(2);
  expect(result.stderr).toContain("agent chat needs a terminal");
  expect(result.stderr).toContain("agent run");
  expect(server.requests).toHaveLength(0);
});

test(
  "`agent chat -c` on a session another run holds: one line naming the process, exit 2, no stack trace",
  async () => {
    const sandbox = makeE2eSandbox();
    const env = anthropicEnv(sandbox, server);
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let holder: ReturnType<typeof spawnAgent> | undefined;
    let run: ReturnType<typeof startTerminal> | undefined;
    try {
      server.enqueue({ text: "first answer" });
      expect((await runAgentIn(sandbox, ["run", "first goal"], env)).code).toBe(0);
      const [id] = sessionIds(sandbox);
      server.enqueue({ text: "held answer", holdUntil: held });
      const before = server.requests.length;
      holder = spawnAgent(["run", "-c", "keep going"], { env, cwd: sandbox.workspace });
      // The holder has the transcript open (and the session's lock) once its model request arrives.
      await waitFor(() => server.requests.length > before, "the holding run's model request");
      run = startTerminal(["chat", "-c"], { server, sandbox });
      const screen = await run.waitForScreen(/EXIT=\d+/, "chat -c to end");
      expect(await run.exitStatus()).toBe(2);
      expect(screen).toContain(`session ${id} is in use by process ${holder.proc.pid}`);
      expect(screen).not.toMatch(/^\s+at /m);
      expect(server.requests.length - before).toBe(1);
      release();
      expect((await holder.done).code).toBe(0);
    } finally {
      release();
      await holder?.done;
      if (run) {
        tmux("kill-session", "-t", run.name);
      }
      sandbox.cleanup();
    }
  },
  TEST_TIMEOUT_MS,
);
