/**
 * `agent worktrees` implementation: lists the repository's worktrees of `agent`'s with their state, and
 * removes one (with its branch) unless it holds uncommitted changes or unmerged commits (`--force`
 * drops them). Outside a git repository: exit 2 with the reason (docs/worktrees.md).
 */
import { resolve } from "node:path";
import { findRepository } from "../../tools/worktree/repository.ts";
import { listWorktrees, removeWorktree, type WorktreeState } from "../../tools/worktree/worktree-store.ts";
import type { CommandIo } from "../shared/io/command-io.ts";

export interface WorktreeListFlags {
  cwd?: string;
  json?: boolean;
}

export interface WorktreeRemoveFlags {
  cwd?: string;
  force?: boolean;
}

/** Prints the worktrees as a table (or JSON). */
export function listWorktreesCommand(flags: WorktreeListFlags, io: CommandIo): void {
  const repo = findRepository(resolve(io.cwd, flags.cwd ?? "."), io.env);
  const states = listWorktrees(repo, io.env);
  if (flags.json) {
    io.stdout.json(states.map(stateRecord), 2);
    return;
  }
  if (states.length === 0) {
    io.stderr.write(`no worktrees of agent for ${repo.mainTop} (agent run --worktree makes one)\n`);
    return;
  }
  const rows = states.map((s) => [
    s.name,
    s.branch,
    changeText(s),
    s.created.slice(0, 16).replace("T", " "),
    s.path,
  ]);
  const header = ["NAME", "BRANCH", "CHANGES", "CREATED", "PATH"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  io.stdout.write(`${[line(header), ...rows.map(line)].join("\n")}\n`);
}

/** Removes one worktree; refusals are AppErrors (exit 2) that say how to review, merge or force. */
export function removeWorktreeCommand(name: string, flags: WorktreeRemoveFlags, io: CommandIo): void {
  const repo = findRepository(resolve(io.cwd, flags.cwd ?? "."), io.env);
  const removed = removeWorktree(repo, name, { force: flags.force === true, env: io.env });
  io.stderr.write(`removed worktree ${removed.name} (${removed.path}) and branch ${removed.branch}\n`);
}

function changeText(state: WorktreeState): string {
  if (state.missing) return "folder missing";
  const parts = [
    state.uncommitted > 0 ? `${state.uncommitted} uncommitted` : "",
    state.unmerged > 0 ? `${state.unmerged} unmerged commit(s)` : "",
  ].filter((p) => p !== "");
  return parts.length > 0 ? parts.join(", ") : "none";
}

function stateRecord(state: WorktreeState) {
  return {
    name: state.name,
    branch: state.branch,
    path: state.path,
    base: state.base,
    created: state.created,
    changed: state.uncommitted > 0 || state.unmerged > 0,
    uncommitted: state.uncommitted,
    unmerged_commits: state.unmerged,
    missing: state.missing,
  };
}
