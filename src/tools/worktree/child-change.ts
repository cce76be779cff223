/**
 * What an isolated sub-agent (`isolation: worktree`) starts from and brings back. It starts from the
 * parent's files as they are: tracked changes and new files that git does not ignore are written into a
 * commit on top of HEAD through a temporary index (the parent's index, HEAD and files are untouched).
 * It brings back its commit's change against that start, as a plan of whole-file writes for the parent's
 * workspace (apply-patch.ts PatchPlan, written by the same guarded, all-or-nothing commitPlan): a file
 * the parent has not touched since gets the child's content; one both changed is merged by
 * `git merge-file` (git-merge-file(1)); a conflict, a binary file or a path outside the parent's
 * workspace leaves the change unapplied (it stays on the child's branch).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import type { FileChange, PatchPlan } from "../files/apply-patch.ts";
import { readTextFile } from "../files/files.ts";
import type { Workspace } from "../workspace.ts";
import { git, gitOrThrow, identityArgs } from "./git.ts";
import type { Repository } from "./repository.ts";

type Env = Record<string, string | undefined>;

/** The commit an isolated child starts from: HEAD, or HEAD plus the working tree's changes. */
export function snapshotBase(repo: Repository, env: Env): string {
  const head = gitOrThrow(repo.top, ["rev-parse", "--verify", "HEAD^{commit}"], env);
  const dir = mkdtempSync(join(tmpdir(), "agent-snapshot-"));
  try {
    const index = { GIT_INDEX_FILE: join(dir, "index") };
    const step = (args: string[]) => {
      const result = git(repo.top, args, env, undefined, index);
      if (!result.ok) throw new Error(`git ${args[0]} failed: ${result.stderr}`);
      return result.stdout.trim();
    };
    step(["read-tree", head]);
    step(["add", "--all", "--", "."]);
    const tree = step(["write-tree"]);
    if (tree === gitOrThrow(repo.top, ["rev-parse", `${head}^{tree}`], env)) return head;
    const message = "agent: working state an isolated sub-agent starts from";
    return gitOrThrow(
      repo.top,
      [...identityArgs(repo.top, env), "commit-tree", tree, "-p", head, "-m", message],
      env,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The child's change as writes to the parent's workspace, and what could not be carried over. */
export interface ChildChange {
  plan: PatchPlan;
  /** Files that could not be applied, with why (a conflict, a binary file, outside the workspace). */
  unapplied: string[];
}

/** Changes between `base` and `commit` under the workspace's folder, planned against `workspace`. */
export async function childChange(
  repo: Repository,
  base: string,
  commit: string,
  workspace: Workspace,
  env: Env,
): Promise<ChildChange> {
  const scope = repo.prefix === "" ? "." : repo.prefix;
  const listed = gitOrThrow(
    repo.top,
    ["diff", "--name-only", "-z", "--no-renames", base, commit, "--", scope],
    env,
  );
  const paths = listed.split("\0").filter((p) => p !== "");
  const changes: FileChange[] = [];
  const unapplied: string[] = [];
  const summary: string[] = [];
  for (const path of paths) {
    const rel = repo.prefix === "" ? path : relative(repo.prefix, path);
    const before = blob(repo, base, path, env);
    const after = blob(repo, commit, path, env);
    if (isBinary(before) || isBinary(after)) {
      unapplied.push(`${rel}: a binary file`);
      continue;
    }
    let abs: string;
    try {
      abs = await workspace.resolve(rel);
    } catch (error) {
      unapplied.push(`${rel}: ${(error as Error).message}`);
      continue;
    }
    const current = await readTextFile(abs, rel, workspace).catch(() => null);
    const merged = mergeThree(repo, current, textOf(before), textOf(after), env);
    if (merged === undefined) {
      unapplied.push(`${rel}: your copy changed the same lines (a merge conflict)`);
      continue;
    }
    if (merged === current) continue;
    changes.push({ abs, rel, existed: current !== null, before: current, after: merged });
    summary.push(`${current === null ? "A" : merged === null ? "D" : "M"} ${rel}`);
  }
  return { plan: { changes, summary }, unapplied };
}

/** A file's bytes at a commit; null when it does not exist there. */
function blob(repo: Repository, commit: string, path: string, env: Env): Buffer | null {
  const result = git(repo.top, ["cat-file", "blob", `${commit}:${path}`], env);
  return result.ok ? result.bytes : null;
}

function isBinary(bytes: Buffer | null): boolean {
  return bytes?.includes(0) === true;
}

function textOf(bytes: Buffer | null): string | null {
  return bytes === null ? null : bytes.toString("utf8");
}

/**
 * The parent's file after taking the child's change: the child's when the parent's copy is the base
 * (or already the child's), else a clean three-way merge; undefined on a conflict. null means deleted.
 */
function mergeThree(
  repo: Repository,
  current: string | null,
  base: string | null,
  child: string | null,
  env: Env,
): string | null | undefined {
  if (current === base) return child;
  if (current === child) return current;
  if (current === null || child === null) return undefined;
  const dir = mkdtempSync(join(tmpdir(), "agent-merge-"));
  try {
    const files = { current: join(dir, "current"), base: join(dir, "base"), child: join(dir, "child") };
    writeFileSync(files.current, current);
    writeFileSync(files.base, base ?? "");
    writeFileSync(files.child, child);
    const merged = git(
      repo.top,
      ["merge-file", "-p", "--quiet", files.current, files.base, files.child],
      env,
    );
    return merged.ok ? merged.stdout : undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
