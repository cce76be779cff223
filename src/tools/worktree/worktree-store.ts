/**
 * The worktrees `agent` makes: each a git worktree on a branch of its own (`agent/NAME`), kept outside
 * the working tree under `$XDG_STATE_HOME/agent/worktrees/<repo-id>/NAME`, with a small record beside it
 * (`NAME.json`: branch, base commit, creation time). Create (or enter an existing one), list, commit the
 * work, remove (refusing uncommitted or unmerged work unless forced). Modelled on Claude Code's
 * `--worktree` (https://code.claude.com/docs/en/worktrees: a new branch per worktree, a generated name
 * when none is given) and Gemini CLI's (https://geminicli.com/docs/cli/git-worktrees.md).
 */
import { randomBytes } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { worktreesDir } from "../../kernel/files/paths.ts";
import { AppError } from "../../kernel/index.ts";
import { git, gitOrThrow, identityArgs } from "./git.ts";
import type { Repository } from "./repository.ts";

type Env = Record<string, string | undefined>;

/** One worktree of `agent`'s. */
export interface WorktreeInfo {
  name: string;
  branch: string;
  /** The worktree's top folder. */
  path: string;
  /** The commit it started from. */
  base: string;
  /** ISO time it was made. */
  created: string;
}

/** Names a user types: letters, digits, `.`, `_`, `-` (at most 64), not starting with `.` or `-`. */
const NAME_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,63}$/;

export function checkWorktreeName(name: string): void {
  if (!NAME_PATTERN.test(name) || name.endsWith(".lock") || name.includes("..")) {
    throw new AppError(
      "usage",
      `worktree name ${JSON.stringify(name)}: expected letters, digits, '.', '_' or '-' (at most 64), starting with a letter, digit or '_'`,
    );
  }
}

/** A fresh name: `wt-` and 6 hex digits. */
export function generatedName(): string {
  return `wt-${randomBytes(3).toString("hex")}`;
}

/** The folder holding a repository's worktrees and their records. */
export function repositoryWorktreesDir(repo: Repository, env: Env): string {
  return join(worktreesDir(env), repo.id);
}

function recordPath(repo: Repository, name: string, env: Env): string {
  return join(repositoryWorktreesDir(repo, env), `${name}.json`);
}

/** The record of worktree `name`, or undefined when `agent` has none by that name. */
export function readWorktree(repo: Repository, name: string, env: Env): WorktreeInfo | undefined {
  const file = recordPath(repo, name, env);
  if (!existsSync(file)) return undefined;
  try {
    const data: unknown = JSON.parse(readFileSync(file, "utf8"));
    if (!isRecord(data)) return undefined;
    const { branch, path, base, created } = data;
    if (typeof branch !== "string" || typeof path !== "string" || typeof base !== "string") return undefined;
    return { name, branch, path, base, created: typeof created === "string" ? created : "" };
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The commit `ref` names in the repository; AppError("config") when it names none. */
export function resolveBase(repo: Repository, ref: string, env: Env): string {
  if (ref.startsWith("-") || ref.trim() === "") {
    throw new AppError("config", `worktree.base_ref ${JSON.stringify(ref)}: not a git revision`);
  }
  const result = git(
    repo.top,
    ["rev-parse", "--verify", "--quiet", "--end-of-options", `${ref}^{commit}`],
    env,
  );
  if (!result.ok) {
    throw new AppError(
      "config",
      `worktree base ${JSON.stringify(ref)} names no commit in ${repo.mainTop} (worktree.base_ref in config; a repository needs a first commit)`,
    );
  }
  return result.stdout.trim();
}

/**
 * Makes worktree `name` on a new branch `branchPrefix/name` from commit `base`; an existing worktree of
 * that name is entered instead (`created: false`). AppError("usage") when the branch exists already
 * without a worktree of ours.
 */
export function createWorktree(
  repo: Repository,
  options: { name: string; base: string; env: Env; branchPrefix?: string },
): WorktreeInfo & { created: string; reused: boolean } {
  const { name, env } = options;
  checkWorktreeName(name);
  const known = readWorktree(repo, name, env);
  if (known && existsSync(known.path)) return { ...known, reused: true };
  const dir = repositoryWorktreesDir(repo, env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, name);
  const branch = `${options.branchPrefix ?? "agent"}/${name}`;
  if (git(repo.top, ["rev-parse", "--verify", "--quiet", `refs/heads/${branch}`], env).ok) {
    throw new AppError(
      "usage",
      `branch ${branch} exists already; pick another worktree name (agent worktrees lists those of agent)`,
    );
  }
  const added = git(repo.top, ["worktree", "add", "--quiet", "-b", branch, path, options.base], env);
  if (!added.ok) throw new AppError("usage", `git worktree add failed: ${added.stderr}`);
  const info: WorktreeInfo = {
    name,
    branch,
    path: realpathSync(path),
    base: options.base,
    created: new Date().toISOString(),
  };
  writeFileSync(recordPath(repo, name, env), `${JSON.stringify(info)}\n`, { mode: 0o600 });
  return { ...info, reused: false };
}

/** What `agent worktrees` shows of one worktree. */
export interface WorktreeState extends WorktreeInfo {
  /** Files changed and not committed (git status). */
  uncommitted: number;
  /** Commits on the branch that the main working tree's HEAD does not contain. */
  unmerged: number;
  /** The folder is gone (removed by hand): `git worktree prune` forgets it. */
  missing: boolean;
}

/** The state of one worktree. */
export function worktreeState(repo: Repository, info: WorktreeInfo, env: Env): WorktreeState {
  const missing = !existsSync(info.path);
  const status = missing ? undefined : git(info.path, ["status", "--porcelain", "-z"], env);
  const uncommitted = status?.ok ? status.stdout.split("\0").filter((l) => l !== "").length : 0;
  const ahead = git(repo.mainTop, ["rev-list", "--count", `HEAD..refs/heads/${info.branch}`], env);
  const unmerged = ahead.ok ? Number.parseInt(ahead.stdout.trim(), 10) || 0 : 0;
  return { ...info, uncommitted, unmerged, missing };
}

/** Every worktree of `agent`'s in the repository, oldest first. */
export function listWorktrees(repo: Repository, env: Env): WorktreeState[] {
  const dir = repositoryWorktreesDir(repo, env);
  if (!existsSync(dir)) return [];
  const names = readdirNames(dir)
    .filter((f) => f.endsWith(".json"))
    .map((f) => f.slice(0, -".json".length));
  return names
    .map((name) => readWorktree(repo, name, env))
    .filter((info): info is WorktreeInfo => info !== undefined)
    .map((info) => worktreeState(repo, info, env))
    .sort((a, b) => a.created.localeCompare(b.created));
}

function readdirNames(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/**
 * Commits everything changed in the worktree (new files included, ignored files not) on its branch;
 * the commit's hash, or undefined when nothing changed.
 */
export function commitWorktree(path: string, message: string, env: Env): string | undefined {
  const status = git(path, ["status", "--porcelain"], env);
  if (!status.ok || status.stdout.trim() === "") return undefined;
  gitOrThrow(path, ["add", "--all"], env);
  gitOrThrow(path, [...identityArgs(path, env), "commit", "--quiet", "--no-verify", "-m", message], env);
  return gitOrThrow(path, ["rev-parse", "HEAD"], env);
}

/**
 * Removes worktree `name` and its branch. Without `force`, refuses (AppError "usage") when it holds
 * uncommitted changes or commits the main working tree's HEAD lacks.
 */
export function removeWorktree(
  repo: Repository,
  name: string,
  options: { force: boolean; env: Env },
): WorktreeState {
  const { env } = options;
  checkWorktreeName(name);
  const info = readWorktree(repo, name, env);
  if (!info) throw new AppError("usage", `no worktree named ${name} (agent worktrees lists them)`);
  const state = worktreeState(repo, info, env);
  if (!options.force && (state.uncommitted > 0 || state.unmerged > 0)) {
    const what = [
      state.uncommitted > 0 ? `${state.uncommitted} uncommitted change(s)` : "",
      state.unmerged > 0 ? `${state.unmerged} commit(s) not merged into HEAD of ${repo.mainTop}` : "",
    ]
      .filter((s) => s !== "")
      .join(" and ");
    throw new AppError(
      "usage",
      `worktree ${name} holds ${what}; review with git -C ${info.path} status, merge with git merge ${info.branch}, or drop it with agent worktrees remove ${name} --force`,
    );
  }
  if (!state.missing) {
    const removed = git(repo.mainTop, ["worktree", "remove", "--force", info.path], env);
    if (!removed.ok) throw new AppError("usage", `git worktree remove failed: ${removed.stderr}`);
  }
  git(repo.mainTop, ["worktree", "prune"], env);
  git(repo.mainTop, ["branch", "-D", "--quiet", info.branch], env);
  rmSync(recordPath(repo, name, env), { force: true });
  return state;
}

/** True when `path` (a workspace root) is one of `agent`'s worktrees: under the state directory's worktrees. */
export function isAgentWorktreePath(path: string, env: Env): boolean {
  const root = worktreesDir(env);
  let real = root;
  try {
    real = realpathSync(root);
  } catch {
    return false;
  }
  return path.startsWith(`${real}/`) && statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
}
