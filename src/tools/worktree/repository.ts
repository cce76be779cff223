/**
 * The git repository a directory belongs to, as the worktree machinery needs it: its top-level folder,
 * the folder of the workspace inside it, the shared git directory, and a stable id that names the
 * repository's folder of worktrees under the state directory (`<name>-<8 hex of the git dir's path>`).
 */
import { createHash } from "node:crypto";
import { basename, dirname, relative } from "node:path";
import { AppError } from "../../kernel/index.ts";
import { git } from "./git.ts";

export interface Repository {
  /** The real path of the working tree `dir` lies in (a linked worktree's own top, when it is one). */
  top: string;
  /** The workspace folder relative to `top` ("" at the top). */
  prefix: string;
  /** The real path of the git directory every worktree of this repository shares. */
  commonDir: string;
  /** The main working tree (the folder holding `commonDir`), when the repository has one. */
  mainTop: string;
  /** `<folder name>-<8 hex>`: names the repository's worktrees folder. */
  id: string;
}

/** The repository of `dir`; AppError("usage", exit 2) when it is not inside a git working tree. */
export function findRepository(dir: string, env: Record<string, string | undefined>): Repository {
  const top = git(dir, ["rev-parse", "--show-toplevel"], env);
  const common = git(dir, ["rev-parse", "--path-format=absolute", "--git-common-dir"], env);
  if (!top.ok || !common.ok || top.stdout.trim() === "") {
    throw new AppError(
      "usage",
      `${dir} is not inside a git repository: worktrees need one (git init, or run where the repository is)`,
    );
  }
  const topPath = top.stdout.trim();
  const commonDir = common.stdout.trim();
  const mainTop = basename(commonDir) === ".git" ? dirname(commonDir) : commonDir;
  const hash = createHash("sha256").update(commonDir).digest("hex").slice(0, 8);
  const label =
    basename(mainTop)
      .replace(/[^A-Za-z0-9._-]/g, "_")
      .slice(0, 40) || "repo";
  return { top: topPath, prefix: relative(topPath, dir), commonDir, mainTop, id: `${label}-${hash}` };
}
