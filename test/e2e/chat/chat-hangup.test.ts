/**
 * A closed terminal or SSH session sends SIGHUP to a chat (issue 22): on a real pseudo-terminal (tmux),
 * a chat whose turn is waiting on the model ends at once with exit 129, its transcript closed with
 * `session_end`, instead of dying with the turn's records half written.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { type FakeLlmServer, startFakeLlmServer } from "../../support/fake-llm-server.ts";
import { onlyTranscriptText, transcriptRecords } from "../support.ts";
import { TEST_TIMEOUT_MS, tmux, withTerminal } from "../tmux.ts";

let server: FakeLlmServer;
beforeEach(async () => {
  server = await startFakeLlmServer();
});
afterEach(async () => {
  server.dropHanging();
  await server.close();
});

/** The agent's process: the child of the pane's shell (bin/agent execs Bun). */
function agentPid(session: string): number {
  const shell = tmux("list-panes", "-t", session, "-F", "#{pane_pid}").trim();
  const children = execFileSync("ps", ["--ppid", shell, "-o", "pid="], { encoding: "utf8" }).trim();
  const pid = Number(children.split("\n")[0]);
  if (!Number.isInteger(pid) || pid <= 0) throw new Error(`no agent process under the pane's shell ${shell}`);
  return pid;
}

test(
  "SIGHUP during a chat turn ends the chat: exit 129, the transcript closed with session_end",
  async () => {
    server.enqueue({ text: "never sent", hangAfterEvents: 0 });
    await withTerminal(["chat"], { server }, async (run) => {
      await run.waitForScreen(/Enter send/, "the input box");
      run.send("tell me a slow story");
      while (server.requests.length === 0) await Bun.sleep(20);
      process.kill(agentPid(run.name), "SIGHUP");
      expect(await run.exitStatus()).toBe(129);
      const kinds = transcriptRecords(onlyTranscriptText(run.sandbox)).map((r) => r.kind);
      expect(kinds).toContain("session_start");
      expect(kinds.at(-1)).toBe("session_end");
    });
  },
  TEST_TIMEOUT_MS,
);
