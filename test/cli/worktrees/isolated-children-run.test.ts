/**
 * `agent run` with two `isolation: worktree` sub-agents called in one response, from the user's side:
 * the project's specs on disk, the models scripted on the fake server per agent (`enqueueFor`, since
 * the two children ask at the same time), real git in the sandbox's workspace. Both children edit the
 * same file differently; each change ends committed on the child's own branch, and each comes back to
 * the parent as an apply_patch that goes through the approval gate (`--on-ask allow`), so the user's
 * file ends with both. `agent` runs in the test process (../run/in-process.ts).
 */
import { expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseJsonLines, writeProjectSpec } from "../../e2e/support.ts";
import { inProcessFixture } from "../run/in-process.ts";

const TIMEOUT_MS = 60_000;
const agent = inProcessFixture();

function git(cwd: string, ...args: string[]): string {
  const run = spawnSync("git", args, { cwd, encoding: "utf8" });
  if (run.status !== 0) throw new Error(`git ${args.join(" ")}: ${run.stderr}`);
  return run.stdout.trim();
}

const ORIGINAL = "line 1\nline 2\nline 3\nline 4\nline 5\n";

/** A spec whose system prompt carries a marker the fake server routes its turns by. */
function spec(name: string, capabilities: string, extra = ""): string {
  return [
    `name: ${name}`,
    `description: ${name} of the test.`,
    "model: fast",
    `capabilities: [${capabilities}]`,
    extra,
    `system_prompt: You are ${name.toUpperCase()}-MARK.`,
    "",
  ].join("\n");
}

/** A repository with notes.txt and the three specs committed, in the sandbox's workspace. */
function initRepository(): string {
  const ws = realpathSync(agent.sandbox.workspace);
  writeProjectSpec(agent.sandbox, "lead.yaml", spec("lead", "read_file, editor-a, editor-b"));
  for (const name of ["editor-a", "editor-b"])
    writeProjectSpec(
      agent.sandbox,
      `${name}.yaml`,
      spec(name, "read_file, edit_file", "isolation: worktree"),
    );
  writeFileSync(join(ws, "notes.txt"), ORIGINAL);
  git(ws, "init", "--quiet", "-b", "main");
  git(ws, "add", ".");
  git(ws, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "--quiet", "-m", "first");
  return ws;
}

function editorTurns(name: string, from: string, to: string) {
  return [
    { toolCalls: [{ name: "edit_file", args: { path: "notes.txt", old_string: from, new_string: to } }] },
    { text: `${name} edited notes.txt` },
  ];
}

test(
  "two parallel isolated sub-agents editing one file: both changes on their branches, each brought back through the gate",
  async () => {
    const ws = initRepository();
    agent.server.enqueue(
      {
        toolCalls: [
          { name: "editor-a", args: { goal: "change line 1" } },
          { name: "editor-b", args: { goal: "change line 5" } },
        ],
      },
      { text: "both done" },
    );
    agent.server.enqueueFor("EDITOR-A-MARK", ...editorTurns("editor-a", "line 1\n", "line one (A)\n"));
    agent.server.enqueueFor("EDITOR-B-MARK", ...editorTurns("editor-b", "line 5\n", "line five (B)\n"));
    const run = await agent.run([
      "run",
      "--agent",
      "lead",
      "--on-ask",
      "allow",
      "-o",
      "stream-json",
      "change lines 1 and 5",
    ]);
    expect(run.stderr).not.toContain("error");
    expect(run.code).toBe(0);
    const events = parseJsonLines(run.stdout);

    // The two children ran at the same time: both started before either ended.
    const acts = events.filter((e) => e.type === "act_start" || e.type === "act_end").map((e) => e.type);
    expect(acts).toEqual(["act_start", "act_start", "act_end", "act_end"]);

    // Each child's change is committed on its own branch, and only its own.
    const branches = git(ws, "branch", "--list", "agent/sub-*", "--format=%(refname:short)").split("\n");
    const a = branches.find((b) => b.startsWith("agent/sub-editor-a-")) ?? "none";
    const b = branches.find((b) => b.startsWith("agent/sub-editor-b-")) ?? "none";
    expect(git(ws, "show", `${a}:notes.txt`)).toBe("line one (A)\nline 2\nline 3\nline 4\nline 5");
    expect(git(ws, "show", `${b}:notes.txt`)).toBe("line 1\nline 2\nline 3\nline 4\nline five (B)");

    // Each change was offered to the lead as an apply_patch through the gate, approved and applied.
    interface Request {
      id: string;
      agent: string;
      tool: string;
      args: { from_branch?: string };
      preview: string;
    }
    const asked = events
      .filter((e) => e.type === "approval_request")
      .map((e) => e.request as Request)
      .filter((r) => r.tool === "apply_patch");
    // They come back in the order the children ended, which the test does not fix.
    const offered = (branch: string) => asked.find((r) => r.args.from_branch === branch);
    expect(asked.map((r) => r.agent)).toEqual(["root", "root"]);
    expect(offered(a)?.preview).toContain("+line one (A)");
    expect(offered(b)?.preview).toContain("+line five (B)");
    const decided = events.filter((e) => e.type === "approval_decision" && asked.some((r) => r.id === e.id));
    expect(decided.map((e) => [e.decision, e.why])).toEqual([
      [{ kind: "once" }, "on_ask"],
      [{ kind: "once" }, "on_ask"],
    ]);
    expect(readFileSync(join(ws, "notes.txt"), "utf8")).toBe(
      "line one (A)\nline 2\nline 3\nline 4\nline five (B)\n",
    );
  },
  TIMEOUT_MS,
);
