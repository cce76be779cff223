import { readdir } from "node:fs/promises";
import path from "node:path";
import { readConfigFileResult } from "../../kernel/files/config-file.ts";
import { closeOpenToolCalls } from "./context/history.ts";
import { append, type Run, type TurnState } from "./run-state.ts";

/**
 * Perceive: the first user message of a run — the goal, the hints, and cheap facts about the
 * workspace (root path, top-level listing, git branch) so the model does not spend turns finding them.
 */

/** Facts about the workspace, gathered without spawning processes. */
export interface WorkspaceFacts {
  root: string;
  /** Top-level entries, directories with a trailing `/`, at most MAX_ENTRIES. */
  entries: string[];
  /** How many entries were left out. */
  more: number;
  branch?: string;
}

const MAX_ENTRIES = 60;
const HIDDEN_NOISE = new Set([".git", "node_modules", ".DS_Store"]);

/** Reads the workspace facts; a failure to read just leaves a fact out. */
export async function workspaceFacts(root: string): Promise<WorkspaceFacts> {
  const facts: WorkspaceFacts = { root, entries: [], more: 0 };
  try {
    const entries = await readdir(root, { withFileTypes: true });
    const names = entries
      .filter((e) => !HIDDEN_NOISE.has(e.name))
      .map((e) => (e.isDirectory() ? `${e.name}/` : e.name))
      .sort();
    facts.entries = names.slice(0, MAX_ENTRIES);
    facts.more = Math.max(0, names.length - MAX_ENTRIES);
  } catch {
    // unreadable root: leave the listing out
  }
  // Read like a config file: a FIFO, device or huge HEAD planted by a repository cannot block or flood us.
  const read = await readConfigFileResult(path.join(root, ".git", "HEAD"), { within: root, cap: 4096 });
  if ("text" in read) {
    const head = read.text.trim();
    const match = /^ref: refs\/heads\/(.+)$/.exec(head);
    facts.branch = match ? match[1] : `(detached at ${head.slice(0, 12)})`;
  }
  // else: not a git repository, a worktree, or a HEAD that is not a small regular file: no branch
  return facts;
}

function formatHints(hints: readonly string[]): string {
  return hints.length > 0 ? `\n\nHints:\n${hints.map((h) => `- ${h}`).join("\n")}` : "";
}

/** The first user message of a fresh run. */
export function initialMessage(goal: string, hints: readonly string[], facts: WorkspaceFacts): string {
  const listing =
    facts.entries.length > 0
      ? `${facts.entries.join("  ")}${facts.more > 0 ? `  (+${facts.more} more)` : ""}`
      : "(empty)";
  const branch = facts.branch ? `\nGit branch: ${facts.branch}` : "";
  return (
    `Goal: ${goal}${formatHints(hints)}\n\n` +
    `Workspace: ${facts.root}${branch}\nTop-level entries: ${listing}\n` +
    `Relative paths are resolved against the workspace.`
  );
}

/** The user message continuing an earlier conversation with a new goal (resume). */
export function continueMessage(goal: string, hints: readonly string[]): string {
  return `New goal: ${goal}${formatHints(hints)}`;
}

/** Perceive: the goal, hints and workspace facts (or, resumed, the goal continuing the history). */
export async function perceive(run: Run, state: TurnState): Promise<void> {
  const { goal, hints = [], workspace } = run.options;
  if (state.messages.length === 0) {
    append(run, state, {
      role: "user",
      content: initialMessage(goal, hints, await workspaceFacts(workspace.root)),
    });
  } else {
    closeOpenToolCalls(state.messages, (m) => append(run, state, m));
    append(run, state, { role: "user", content: continueMessage(goal, hints) });
  }
}
