/**
 * A rewind of a session (docs/rewind.md), shared by `agent rewind` and the chat's `/rewind`: code, the
 * conversation or both back to an earlier user message, as Claude Code's `/rewind` offers ("Restore code
 * and conversation", "Restore conversation", "Restore code": code.claude.com/docs/en/checkpointing), or
 * the undo of the last rewind. Files come back from the checkpoint store (tools/checkpoints/restore.ts);
 * the conversation is cut by the `rewind` record the caller appends, which resume reads
 * (agents/loop/context/resume.ts). The rewind record lists what it wrote, so it is itself undoable.
 */
import { checkpointsDir } from "../../../kernel/files/paths.ts";
import { type AgentEvent, AppError, type RewindData } from "../../../kernel/index.ts";
import { rewindView } from "../../../session/rewind-view.ts";
import { applyRestore, planRestore, type RestorePlan } from "../../../tools/checkpoints/restore.ts";
import { ShadowGit, shadowDirFor } from "../../../tools/checkpoints/shadow-git.ts";
import type { Workspace } from "../../../tools/workspace.ts";

/** What to rewind. */
export interface RewindRequest {
  /** The user message to go back to (from 1; default 1, the session's start). */
  to?: number;
  code: boolean;
  conversation: boolean;
  /** Undo the last rewind instead (`to`, `code` and `conversation` are then the undone rewind's). */
  undo?: boolean;
}

/**
 * Carries out a rewind on the workspace and returns the record to append to the session's transcript.
 * AppError "usage" (exit 2) for a message number the session does not have, or nothing to undo.
 */
export async function rewindSession(
  events: readonly AgentEvent[],
  workspace: Workspace,
  env: Record<string, string | undefined>,
  request: RewindRequest,
): Promise<RewindData> {
  const view = rewindView(events);
  if (request.undo) {
    const last = view.undoable;
    if (last === undefined) {
      throw new AppError(
        "usage",
        "nothing to undo: the session's last rewind was undone already, a message ran after it, or it has none",
      );
    }
    const plan = last.data.code ? await planRestore(workspace, last.data.files) : { files: [], kept: [] };
    const done = await apply(workspace, env, plan);
    const { to, code, conversation } = last.data;
    return { to, code, conversation, files: done.files, kept: done.kept, undo: true };
  }
  const count = view.turns.length;
  if (count === 0) throw new AppError("usage", "the session has no user message to rewind to");
  const to = request.to ?? 1;
  const turn = view.turns[to - 1];
  if (!Number.isInteger(to) || turn === undefined) {
    throw new AppError(
      "usage",
      `--to ${to}: the session has ${count} user message${count === 1 ? "" : "s"} (1-${count})`,
    );
  }
  let plan: RestorePlan = { files: [], kept: [] };
  if (request.code) {
    const { changes, skipped } = view.changesAfter(turn.position);
    plan = await planRestore(workspace, changes, skipped);
  }
  const done = await apply(workspace, env, plan);
  return { to, code: request.code, conversation: request.conversation, files: done.files, kept: done.kept };
}

/** Writes the plan back from the workspace's shadow repository (run only when there is something to write). */
async function apply(
  workspace: Workspace,
  env: Record<string, string | undefined>,
  plan: RestorePlan,
): Promise<RestorePlan> {
  if (plan.files.length === 0) return plan;
  const dir = shadowDirFor(checkpointsDir(env), workspace.root);
  const git = new ShadowGit(dir, workspace.root, `${dir}/index-rewind`, "git", env.PATH);
  try {
    return await applyRestore(workspace, git, plan);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      throw new AppError(
        "state",
        "cannot restore files: git was not found on the PATH (the checkpoints are kept with git)",
      );
    }
    throw error;
  }
}

/** What a rewind did, line by line, for the terminal: the files restored, those left alone and why. */
export function rewindText(data: RewindData, undoHint: string): string[] {
  const what = data.code && data.conversation ? "code and conversation" : data.code ? "code" : "conversation";
  const lines = [
    data.undo
      ? `undid the rewind to message ${data.to} (${what})`
      : `rewound ${what} to before message ${data.to}`,
  ];
  for (const file of data.files) {
    const how = file.after === null ? "removed" : file.before === null ? "recreated" : "restored";
    lines.push(`  ${how} ${file.path}`);
  }
  for (const kept of data.kept) lines.push(`  not restored: ${kept.path}: ${kept.reason}`);
  if (data.code && data.files.length === 0 && data.kept.length === 0) lines.push("  no file to restore");
  if (!data.undo) lines.push(`to undo: ${undoHint}`);
  return lines;
}
