/**
 * `agent run --worktree` from the user's side: the model (scripted on the fake server) writes a file,
 * and the work ends up committed on the worktree's own branch, never in the user's checkout; two runs
 * on one repository keep both changes; `agent worktrees` lists them and `remove` refuses uncommitted work;
 * a `.worktreeinclude` symlink to /etc/passwd is not copied while a plain ignored `.env` is. Real git in
 * temp repositories; `agent` in the test process (test/cli/run/in-process.ts).
 */
import { expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync, lstatSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { inProcessFixture } from "../run/in-process.ts";

const TIMEOUT_MS = 60_000;
const agent = inProcessFixture();

function sh(cwd: string, ...args: string[]): string {
  const run = spawnSync("git", args, { cwd, encoding: "utf8" });
  if (run.status !== 0) throw new Error(`git ${args.join(" ")}: ${run.stderr}`);
  return run.stdout.trim();
}

/** A repository with one commit in the sandbox's workspace. */
function initRepository(): string {
  const ws = realpathSync(agent.sandbox.workspace);
  sh(ws, "init", "--quiet", "-b", "main");
  writeFileSync(join(ws, "greet.js"), "export const greet = () => 'hi';\n");
  writeFileSync(join(ws, ".gitignore"), ".env\nsecret-link\n");
  sh(ws, "add", ".");
  sh(ws, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "--quiet", "-m", "first");
  return ws;
}

interface JsonResult {
  status: string;
  worktree?: {
    name: string;
    branch: string;
    path: string;
    commit?: string;
    review_command: string;
    merge_command: string;
  };
}

test(
  "two runs with --worktree on one repository both end with their change on their own branch",
  async () => {
    const ws = initRepository();
    const results: JsonResult[] = [];
    for (const [name, file] of [
      ["first", "a.txt"],
      ["second", "b.txt"],
    ] as const) {
      agent.server.enqueue(
        { toolCalls: [{ name: "write_file", args: { path: file, content: `${name}\n` } }] },
        { text: "Done." },
      );
      const run = await agent.run([
        "run",
        "--agent",
        "code-editor",
        "--worktree",
        name,
        "--allow",
        "write_file",
        "-o",
        "json",
        `write ${file}`,
      ]);
      expect(run.stderr).not.toContain("error");
      expect(run.code).toBe(0);
      results.push(JSON.parse(run.stdout) as JsonResult);
    }
    const [first, second] = results;
    expect(first?.worktree?.branch).toBe("agent/first");
    expect(second?.worktree?.branch).toBe("agent/second");
    // The user's checkout is untouched; each branch holds its own file and not the other's.
    expect(existsSync(join(ws, "a.txt"))).toBe(false);
    expect(existsSync(join(ws, "b.txt"))).toBe(false);
    expect(sh(ws, "status", "--porcelain")).toBe("");
    expect(sh(ws, "show", "agent/first:a.txt")).toBe("first");
    expect(sh(ws, "show", "agent/second:b.txt")).toBe("second");
    expect(sh(ws, "ls-tree", "--name-only", "agent/first")).not.toContain("b.txt");
    // The worktree lives under the state directory, not in the working tree.
    expect(first?.worktree?.path.startsWith(realpathSync(agent.sandbox.stateDir))).toBe(true);
    expect(first?.worktree?.merge_command).toBe(`git -C ${ws} merge agent/first`);
    // The merge command works as printed.
    sh(ws, "-c", "user.name=t", "-c", "user.email=t@t", "merge", "--quiet", "agent/first");
    expect(readFileSync(join(ws, "a.txt"), "utf8")).toBe("first\n");

    const listed = await agent.run(["worktrees", "--json"]);
    expect(listed.code).toBe(0);
    const rows = JSON.parse(listed.stdout) as { name: string; changed: boolean }[];
    expect(rows.map((r) => [r.name, r.changed])).toEqual([
      ["first", false],
      ["second", true],
    ]);
  },
  TIMEOUT_MS,
);

test(
  "agent worktrees remove refuses uncommitted work without --force, and removes with it",
  async () => {
    const ws = initRepository();
    agent.server.enqueue({ text: "Nothing to do." });
    const run = await agent.run(["run", "--worktree", "keep", "-o", "json", "look around"]);
    expect(run.code).toBe(0);
    const path = (JSON.parse(run.stdout) as JsonResult).worktree?.path ?? "";
    writeFileSync(join(path, "notes.txt"), "the user's own edit\n");
    const refused = await agent.run(["worktrees", "remove", "keep"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("uncommitted");
    expect(existsSync(join(path, "notes.txt"))).toBe(true);
    const forced = await agent.run(["worktrees", "remove", "keep", "--force"]);
    expect(forced.code).toBe(0);
    expect(existsSync(path)).toBe(false);
    expect(sh(ws, "branch", "--list", "agent/keep")).toBe("");
  },
  TIMEOUT_MS,
);

test(
  ".worktreeinclude copies an ignored regular file, never a symlink to /etc/passwd",
  async () => {
    const ws = initRepository();
    writeFileSync(join(ws, ".env"), "TOKEN=local\n");
    symlinkSync("/etc/passwd", join(ws, "secret-link"));
    writeFileSync(join(ws, ".worktreeinclude"), ".env\nsecret-link\n");
    agent.server.enqueue({ text: "Ok." });
    const run = await agent.run(["run", "--worktree", "inc", "-o", "json", "look"]);
    expect(run.code).toBe(0);
    const path = (JSON.parse(run.stdout) as JsonResult).worktree?.path ?? "";
    expect(readFileSync(join(path, ".env"), "utf8")).toBe("TOKEN=local\n");
    expect(lstatSync(join(path, "secret-link"), { throwIfNoEntry: false })).toBeUndefined();
    expect(run.stderr).toContain("secret-link not copied");
  },
  TIMEOUT_MS,
);

test(
  "outside a git repository --worktree and agent worktrees exit 2 with the reason",
  async () => {
    const run = await agent.run(["run", "--worktree", "-o", "json", "anything"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("not inside a git repository");
    const listed = await agent.run(["worktrees"]);
    expect(listed.code).toBe(2);
    expect(listed.stderr).toContain("not inside a git repository");
  },
  TIMEOUT_MS,
);

test(
  "--resume of a worktree run, from the user's checkout, continues in that worktree",
  async () => {
    const ws = initRepository();
    agent.server.enqueue(
      { toolCalls: [{ name: "write_file", args: { path: "a.txt", content: "one\n" } }] },
      { text: "Wrote a.txt." },
    );
    const first = await agent.run([
      "run",
      "--agent",
      "code-editor",
      "-w",
      "res",
      "--allow",
      "write_file",
      "-o",
      "json",
      "write a.txt",
    ]);
    expect(first.code).toBe(0);
    const started = JSON.parse(first.stdout) as JsonResult & { session_id: string };
    agent.server.enqueue(
      { toolCalls: [{ name: "write_file", args: { path: "b.txt", content: "two\n" } }] },
      { text: "Wrote b.txt." },
    );
    const resumed = await agent.run([
      "run",
      "--resume",
      started.session_id,
      "--allow",
      "write_file",
      "-o",
      "json",
      "now b.txt",
    ]);
    expect(resumed.stderr).not.toContain("belongs to workspace");
    expect(resumed.code).toBe(0);
    const result = JSON.parse(resumed.stdout) as JsonResult;
    expect(result.worktree?.path).toBe(started.worktree?.path ?? "?");
    expect(sh(ws, "show", "agent/res:b.txt")).toBe("two");
    expect(existsSync(join(ws, "b.txt"))).toBe(false);
  },
  TIMEOUT_MS,
);

test(
  "agent sessions show names the worktree a run worked in: its name, folder and branch",
  async () => {
    initRepository();
    agent.server.enqueue(
      { toolCalls: [{ name: "write_file", args: { path: "c.txt", content: "three\n" } }] },
      { text: "Done." },
    );
    const run = await agent.run([
      "run",
      "--agent",
      "code-editor",
      "--worktree",
      "shown",
      "--allow",
      "write_file",
      "-o",
      "json",
      "write c.txt",
    ]);
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as JsonResult & { session_id: string };
    const path = result.worktree?.path ?? "no worktree";
    const shown = await agent.run(["sessions", "show", result.session_id]);
    expect(shown.stderr).toBe("");
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(`worktree shown: ${path} (branch agent/shown)\n`);

    // A run outside a worktree names none.
    agent.server.enqueue({ text: "Nothing." });
    const plain = await agent.run(["run", "-o", "json", "look"]);
    const plainId = (JSON.parse(plain.stdout) as { session_id: string }).session_id;
    const plainShown = await agent.run(["sessions", "show", plainId]);
    expect(plainShown.code).toBe(0);
    expect(plainShown.stdout).not.toContain("worktree");
  },
  TIMEOUT_MS,
);
