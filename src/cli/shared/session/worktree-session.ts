/**
 * `--worktree [NAME]` for `agent run` and `agent chat`: the run's workspace becomes a new git worktree on
 * branch `agent/NAME` (from HEAD, or config `worktree.base_ref`), made under the state directory with the
 * files `.worktreeinclude` lists copied in (tools/worktree/). A session that lives in one (`--resume` of a
 * worktree run, or a run started inside one) is recognised, so it continues there. At the end the work is
 * committed on the branch and the run says where it is and how to review and merge it (docs/worktrees.md).
 * Loaded only when a run names or lives in a worktree.
 */
import { realpathSync } from "node:fs";
import { join, relative } from "node:path";
import { sessionsDir, worktreesDir } from "../../../kernel/files/paths.ts";
import { AppError } from "../../../kernel/index.ts";
import { findSession, readTranscript } from "../../../session/sessions.ts";
import { findRepository, type Repository } from "../../../tools/worktree/repository.ts";
import { copyIncludedFiles } from "../../../tools/worktree/worktree-include.ts";
import {
  commitWorktree,
  createWorktree,
  generatedName,
  readWorktree,
  resolveBase,
  type WorktreeInfo,
} from "../../../tools/worktree/worktree-store.ts";
import type { FinishedWorktree } from "../../../ui/result.ts";

type Env = Record<string, string | undefined>;

/** The worktree a session runs in. */
export interface WorktreeRun extends WorktreeInfo {
  /** The workspace folder inside the worktree (the same subfolder the user ran from). */
  workspaceDir: string;
  /** The main working tree, where the branch is merged. */
  mainTop: string;
}

/**
 * Makes (or, when NAME exists, enters) the worktree `--worktree` names, from `dir`'s repository.
 * AppError "usage" (exit 2) outside a git repository or for a bad name; "config" (exit 3) for a base that
 * names no commit.
 */
export async function enterWorktree(
  requested: string | true,
  dir: string,
  env: Env,
  baseRef: string | undefined,
  warn: (message: string) => void,
): Promise<WorktreeRun> {
  const repo = findRepository(dir, env);
  const name = requested === true ? generatedName() : requested;
  const base = resolveBase(repo, baseRef ?? "HEAD", env);
  const made = createWorktree(repo, { name, base, env });
  if (!made.reused) {
    const included = await copyIncludedFiles(repo.top, made.path, env);
    for (const note of included.notes) warn(note);
  }
  return { ...made, workspaceDir: join(made.path, repo.prefix), mainTop: repo.mainTop };
}

/** The worktree of `agent`'s that `dir` lies in, or undefined. */
export function worktreeOf(dir: string, env: Env): WorktreeRun | undefined {
  const root = realOrSelf(worktreesDir(env));
  if (!dir.startsWith(`${root}/`)) return undefined;
  let repo: Repository;
  try {
    repo = findRepository(dir, env);
  } catch {
    return undefined;
  }
  const name = relative(join(root, repo.id), repo.top);
  if (name === "" || name.includes("/") || name.startsWith("..")) return undefined;
  const info = readWorktree(repo, name, env);
  if (!info) return undefined;
  return { ...info, workspaceDir: dir, mainTop: repo.mainTop };
}

/**
 * The folder `--resume ID` continues in when that session ran in a worktree of `agent`'s that still
 * exists; undefined otherwise (the session's own check then applies: session-continue.ts).
 */
export function resumedWorktreeDir(resume: string, env: Env): string | undefined {
  let path: string;
  try {
    path = findSession(resume, { dir: sessionsDir(env) });
  } catch {
    return undefined;
  }
  const start = readTranscript(path).events.find((e) => e.kind === "session_start" && e.depth === 0);
  const home = start?.kind === "session_start" ? start.data.cwd : "";
  return home !== "" && worktreeOf(home, env) !== undefined ? home : undefined;
}

/** Commits the run's changes on the worktree's branch; the report the end of the run shows. */
export function finishWorktree(run: WorktreeRun, sessionId: string, env: Env): FinishedWorktree {
  let commit: string | undefined;
  try {
    commit = commitWorktree(run.path, `agent: work of session ${sessionId}`, env);
  } catch (error) {
    throw new AppError("usage", `committing the worktree's changes failed: ${(error as Error).message}`);
  }
  return {
    name: run.name,
    branch: run.branch,
    path: run.path,
    ...(commit !== undefined ? { commit } : {}),
    reviewCommand: `git -C ${shellWord(run.mainTop)} diff HEAD...${run.branch}`,
    mergeCommand: `git -C ${shellWord(run.mainTop)} merge ${run.branch}`,
  };
}

function shellWord(text: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
