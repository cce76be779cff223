/**
 * Sub-agents whose spec says `isolation: worktree`: two children started in one response edit the same
 * file, each in a git worktree of its own; both changes end up committed on their own branches, and
 * each comes back to the parent as an apply_patch through the gate (allowed here: both land in the
 * parent's file, merged). Denied, the change stays on the branch and the parent's model is told so.
 * Real git in a temp repository; the model scripted per agent (harness.ts).
 */
import { afterEach, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Approver } from "../../../src/kernel/run-events/approvals.ts";
import { type Harness, harness, spec, toolResultsIn } from "../harness.ts";

let h: Harness | undefined;
let state: string | undefined;
afterEach(async () => {
  await h?.cleanup();
  if (state) rmSync(state, { recursive: true, force: true });
  h = undefined;
});

/** What the root's model was told by its two children (its second request's tool results). */
function rootResults(): string[] {
  const index = h?.provider.requests.findLastIndex((r) => r.key === "agent:root;") ?? -1;
  return toolResultsIn(h as Harness, index).map((r) => r.content);
}

function git(cwd: string, ...args: string[]): string {
  const run = spawnSync("git", args, { cwd, encoding: "utf8" });
  if (run.status !== 0) throw new Error(`git ${args.join(" ")}: ${run.stderr}`);
  return run.stdout.trim();
}

const ORIGINAL = "line 1\nline 2\nline 3\nline 4\nline 5\n";

function editor(name: string, from: string, to: string) {
  return [
    {
      toolCalls: [{ name: "edit_file", arguments: { path: "notes.txt", old_string: from, new_string: to } }],
    },
    { text: `${name} edited notes.txt` },
  ];
}

async function parallelEditors(rules: { allow?: string[]; approver?: Approver }) {
  h = await harness({
    specs: [
      spec("root", ["editor-a", "editor-b"]),
      spec("editor-a", ["read_file", "edit_file"], { isolation: "worktree" }),
      spec("editor-b", ["read_file", "edit_file"], { isolation: "worktree" }),
    ],
    ...rules,
    script: {
      agents: {
        "agent:root;": [
          {
            toolCalls: [
              { name: "editor-a", arguments: { goal: "change line 1" } },
              { name: "editor-b", arguments: { goal: "change line 5" } },
            ],
          },
          { text: "both done" },
        ],
        "agent:editor-a;": editor("editor-a", "line 1\n", "line one (A)\n"),
        "agent:editor-b;": editor("editor-b", "line 5\n", "line five (B)\n"),
      },
    },
  });
  const repo = realpathSync(h.dir);
  git(repo, "init", "--quiet", "-b", "main");
  writeFileSync(join(repo, "notes.txt"), ORIGINAL);
  git(repo, "add", ".");
  git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "--quiet", "-m", "first");
  state = mkdtempSync(join(tmpdir(), "agent-state-"));
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: state, XDG_STATE_HOME: state };
  const result = await h.run("change lines 1 and 5", { env });
  const branches = git(repo, "branch", "--list", "agent/*", "--format=%(refname:short)").split("\n");
  const branchOf = (name: string) => branches.find((b) => b.startsWith(`agent/sub-${name}-`)) ?? "";
  return { repo, result, a: branchOf("editor-a"), b: branchOf("editor-b") };
}

test("two parallel isolated children editing one file: both changes on their branches and in the parent", async () => {
  const { repo, result, a, b } = await parallelEditors({ allow: ["edit_file"] });
  expect(result.status).toBe("success");
  // They ran at the same time: both started before either ended.
  const acts = h?.events.filter((e) => e.kind === "act_start" || e.kind === "act_end").map((e) => e.kind);
  expect(acts).toEqual(["act_start", "act_start", "act_end", "act_end"]);
  expect(git(repo, "show", `${a}:notes.txt`)).toBe("line one (A)\nline 2\nline 3\nline 4\nline 5");
  expect(git(repo, "show", `${b}:notes.txt`)).toBe("line 1\nline 2\nline 3\nline 4\nline five (B)");
  // Each change came back through the gate as an apply_patch and was applied: the parent has both.
  expect(readFileSync(join(repo, "notes.txt"), "utf8")).toBe(
    "line one (A)\nline 2\nline 3\nline 4\nline five (B)\n",
  );
  const patches = h?.events.filter((e) => e.kind === "tool_end" && e.data.tool === "apply_patch") ?? [];
  expect(patches).toHaveLength(2);
  const told = rootResults();
  expect(told[0]).toContain(`its change was applied to your workspace (M notes.txt)`);
  expect(told[0]).toContain(a);
});

test("a denied change stays on the child's branch and the parent is told", async () => {
  // The user allows each child's own edit and says no to the change the parent is offered.
  const asked: string[] = [];
  const approver: Approver = {
    decide: async (request) => {
      asked.push(`${request.agent}:${request.tool}`);
      return request.tool === "apply_patch" ? { kind: "deny" } : { kind: "once" };
    },
  };
  const { repo, result, a } = await parallelEditors({ approver });
  expect(asked.filter((q) => q.endsWith(":apply_patch"))).toEqual(["root:apply_patch", "root:apply_patch"]);
  expect(result.status).toBe("success");
  expect(readFileSync(join(repo, "notes.txt"), "utf8")).toBe(ORIGINAL);
  expect(git(repo, "show", `${a}:notes.txt`)).toBe("line one (A)\nline 2\nline 3\nline 4\nline 5");
  const told = rootResults();
  expect(told[0]).toContain("its change was NOT applied to your workspace");
  expect(told[0]).toContain(`It stays on branch ${a}`);
});
