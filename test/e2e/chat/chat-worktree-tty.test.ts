/**
 * `agent --worktree NAME` (a chat in a git worktree, docs/worktrees.md) on a real terminal (tmux, see
 * tmux.ts): the chat opens in the worktree (its opening box names it as the workspace), the model's write lands there and not in the user's
 * checkout, and on /quit the chat prints where the work is and the commands to review and merge it.
 */
import { expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeLlmServer } from "../../support/fake-llm-server.ts";
import type { E2eSandbox } from "../support.ts";
import { freshServer } from "../support.ts";
import { TEST_TIMEOUT_MS, tmux, withTerminal } from "../tmux.ts";

let server: FakeLlmServer;

freshServer((s) => {
  server = s;
});

function git(cwd: string, ...args: string[]): string {
  const run = spawnSync("git", args, { cwd, encoding: "utf8" });
  if (run.status !== 0) throw new Error(`git ${args.join(" ")}: ${run.stderr}`);
  return run.stdout.trim();
}

/** A repository with one commit in the sandbox's workspace. */
function initRepository(sandbox: E2eSandbox): void {
  const ws = sandbox.workspace;
  writeFileSync(join(ws, "README.md"), "app\n");
  git(ws, "init", "--quiet", "-b", "main");
  git(ws, "add", ".");
  git(ws, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "--quiet", "-m", "first");
}

test(
  "agent --worktree NAME: the chat works in the worktree and /quit prints its review and merge lines",
  async () => {
    server.enqueue(
      { toolCalls: [{ name: "write_file", args: { path: "note.txt", content: "from the chat\n" } }] },
      { text: "Wrote note.txt." },
    );
    await withTerminal(
      ["--worktree", "spike", "--agent", "code-editor", "--allow", "write_file"],
      { server, prepare: initRepository },
      async (run) => {
        const ws = realpathSync(run.sandbox.workspace);
        const opening = await run.waitForScreen(/Enter send/, "the input box");
        run.send("write note.txt");
        await run.waitForScreen(/Wrote note\.txt\./, "the answer");
        run.send("/quit");
        expect(await run.exitStatus()).toBe(0);
        // The whole pane with wrapped lines joined: the worktree's folder is longer than the terminal.
        const text = tmux("capture-pane", "-p", "-J", "-S", "-", "-t", run.name);
        const where = /worktree spike: (\S+) \(branch agent\/spike, commit [0-9a-f]{12}\)/.exec(text);
        const path = where?.[1] ?? "no worktree line";
        expect(path.startsWith(realpathSync(run.sandbox.stateDir))).toBe(true);
        // The chat opened in the worktree: its opening box names it as the workspace.
        expect(opening).toContain(`workspace ${path} `);
        expect(text).toContain(`review: git -C ${ws} diff HEAD...agent/spike`);
        expect(text).toContain(`merge: git -C ${ws} merge agent/spike`);
        // The write went to the worktree and is committed on its branch; the checkout is untouched.
        expect(readFileSync(join(path, "note.txt"), "utf8")).toBe("from the chat\n");
        expect(git(ws, "show", "agent/spike:note.txt")).toBe("from the chat");
        expect(existsSync(join(ws, "note.txt"))).toBe(false);
      },
    );
  },
  TEST_TIMEOUT_MS,
);
