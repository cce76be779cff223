/**
 * A task's fresh workspace: a copy of its fixture folder, or a clone of its git repository checked out at
 * the ref, in a new temp directory. The fixture itself is never the workspace, so a run cannot change it
 * and two tasks never share one. Symlinks are copied as links (`verbatimSymlinks: true`, Node fs docs:
 * "When true, path resolution for symlinks will be skipped"; never followed out of the fixture); a FIFO,
 * socket or device in a fixture is refused by the copy (Node lib/internal/fs/cp: ERR_FS_CP_FIFO_PIPE,
 * ERR_FS_CP_SOCKET, ERR_FS_CP_UNKNOWN; Bun: "Cannot copy a FIFO pipe", test/cli/eval/task-workspace.test.ts)
 * instead of being opened.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TaskWorkspace } from "../suite/suite-task.ts";

export interface PreparedWorkspace {
  /** The task's workspace: `<temp>/ws`. */
  path: string;
  /** Removes the temp directory and everything in it. */
  remove(): void;
}

/** Thrown when a fixture cannot be copied or checked out: the task fails with this message. */
export class WorkspaceError extends Error {}

export function prepareWorkspace(taskId: string, source: TaskWorkspace): PreparedWorkspace {
  const root = mkdtempSync(join(tmpdir(), `agent-eval-${taskId}-`));
  const path = join(root, "ws");
  const remove = () => rmSync(root, { recursive: true, force: true });
  try {
    if (source.kind === "folder") copyFolder(source.path, path);
    else checkoutRef(source.repo, source.ref, path);
  } catch (error) {
    remove();
    throw error;
  }
  return { path, remove };
}

function copyFolder(from: string, to: string): void {
  try {
    cpSync(from, to, { recursive: true, verbatimSymlinks: true, errorOnExist: true, force: false });
  } catch (error) {
    throw new WorkspaceError(`cannot copy the fixture ${from}: ${(error as Error).message}`);
  }
}

/**
 * `git clone` of a local repository, then a detached checkout of the commit the ref names. The ref is
 * resolved in the clone (a tag or commit as it is, a branch as `origin/BRANCH`), so no git command runs
 * with the source repository's own config (a hostile repository can set config that runs programs).
 */
function checkoutRef(repo: string, ref: string, to: string): void {
  git(["clone", "--quiet", "--no-checkout", "--", repo, to]);
  const commit = [ref, `refs/remotes/origin/${ref}`]
    .map((name) =>
      tryGit(["-C", to, "rev-parse", "--verify", "--quiet", "--end-of-options", `${name}^{commit}`]),
    )
    .find((sha) => sha !== undefined);
  if (commit === undefined) throw new WorkspaceError(`git ref ${ref} names no commit in ${repo}`);
  git(["-C", to, "checkout", "--quiet", "--detach", commit]);
}

function tryGit(args: string[]): string | undefined {
  try {
    return git(args);
  } catch {
    return undefined;
  }
}

function git(args: string[]): string {
  const result = spawnSync("git", args, {
    encoding: "utf8",
    env: { ...process.env, GIT_TERMINAL_PROMPT: "0" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  if (result.error) throw new WorkspaceError(`git ${args.join(" ")}: ${result.error.message}`);
  if (result.status !== 0)
    throw new WorkspaceError(
      `git ${args.join(" ")} failed: ${result.stderr.trim() || `exit ${result.status}`}`,
    );
  return result.stdout.trim();
}
