/**
 * Restoring files from checkpoints (docs/rewind.md). A rewind to a point takes, for each path the agent
 * changed after it, the content that path had before its first change there; and it restores the path
 * only while the file is still as the agent (or the last rewind) left it. A file changed since by someone
 * else is reported and left alone, and paths nothing recorded are never touched: the difference from
 * Gemini CLI's `/restore`, which checks out the whole snapshot and cleans untracked files.
 */
import { chmod, lstat, readlink, symlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { FileChange, SkippedPath, StoredFile } from "../../kernel/run-events/checkpoint-records.ts";
import { readFileBytes, removeFile, writeFileAtomic } from "../files/atomic-write.ts";
import type { Workspace } from "../workspace.ts";
import { CHECKPOINT_LIMITS } from "./checkpointer.ts";
import { blobId, type ShadowGit } from "./shadow-git.ts";

/** What a rewind will do: the paths to write back, and those it leaves alone (with why). */
export interface RestorePlan {
  files: FileChange[];
  kept: SkippedPath[];
}

/**
 * Plans the undoing of `changes` (in the order they happened): each path goes back to its state before
 * its first change, if it is now as its last change left it. `before` of each planned file is the
 * current state, `after` the state it is restored to, so the plan is itself a change a later rewind undoes.
 */
export async function planRestore(
  workspace: Workspace,
  changes: readonly FileChange[],
  notKept: readonly SkippedPath[] = [],
): Promise<RestorePlan> {
  const first = new Map<string, StoredFile | null>();
  const last = new Map<string, StoredFile | null>();
  for (const change of changes) {
    if (!first.has(change.path)) first.set(change.path, change.before);
    last.set(change.path, change.after);
  }
  const files: FileChange[] = [];
  const kept: SkippedPath[] = [];
  for (const [path, target] of first) {
    const expected = last.get(path) ?? null;
    let current: StoredFile | null;
    try {
      current = await currentState(workspace, path);
    } catch (error) {
      kept.push({ path, reason: (error as Error).message });
      continue;
    }
    if (!sameContent(current, expected)) {
      kept.push({ path, reason: "changed since the agent left it (not overwritten)" });
    } else if (!sameContent(current, target)) {
      files.push({ path, before: current, after: target });
    }
  }
  const seen = new Set([...files.map((f) => f.path), ...kept.map((k) => k.path)]);
  for (const skip of notKept) {
    if (seen.has(skip.path)) continue;
    seen.add(skip.path);
    kept.push({ path: skip.path, reason: `not in the checkpoints (${skip.reason})` });
  }
  return { files, kept };
}

/** Writes the plan's files back from the store; a path that fails moves to `kept` with the reason. */
export async function applyRestore(
  workspace: Workspace,
  git: ShadowGit,
  plan: RestorePlan,
): Promise<RestorePlan> {
  const files: FileChange[] = [];
  const kept = [...plan.kept];
  for (const file of plan.files) {
    try {
      await restoreOne(workspace, git, file.path, file.after);
      files.push(file);
    } catch (error) {
      kept.push({ path: file.path, reason: `not restored: ${(error as Error).message}` });
    }
  }
  return { files, kept };
}

async function restoreOne(workspace: Workspace, git: ShadowGit, path: string, target: StoredFile | null) {
  const folder = await workspace.resolve(dirname(path));
  const abs = join(folder, basename(path));
  const existing = await lstat(abs).catch(() => undefined);
  if (target === null) {
    if (existing !== undefined) removeFile(workspace, abs, path);
    return;
  }
  const content = await git.ok(["cat-file", "blob", target.blob]);
  if (target.mode === "120000") {
    if (existing !== undefined) removeFile(workspace, abs, path);
    await symlink(content.toString("utf8"), abs);
    return;
  }
  if (existing?.isSymbolicLink()) removeFile(workspace, abs, path);
  await writeFileAtomic(workspace, abs, path, content);
  await chmod(abs, target.mode === "100755" ? 0o755 : 0o644);
}

/** The path's content now, as the store would name it; null when there is no file. */
async function currentState(workspace: Workspace, path: string): Promise<StoredFile | null> {
  const folder = await workspace.resolve(dirname(path));
  const abs = join(folder, basename(path));
  const stats = await lstat(abs).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw error;
  });
  if (stats === undefined) return null;
  if (stats.isSymbolicLink())
    return { blob: blobId(Buffer.from(await readlink(abs), "utf8")), mode: "120000" };
  if (!stats.isFile()) throw new Error("not a regular file now (left alone)");
  const bytes = await readFileBytes(workspace, abs, path, CHECKPOINT_LIMITS.fileBytes);
  return { blob: blobId(bytes), mode: stats.mode & 0o111 ? "100755" : "100644" };
}

/** Same content (a mode change alone is not someone's edit). */
function sameContent(a: StoredFile | null, b: StoredFile | null): boolean {
  if (a === null || b === null) return a === b;
  return a.blob === b.blob && (a.mode === "120000") === (b.mode === "120000");
}
