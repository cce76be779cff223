/**
 * apply_patch {patch}: applies a `*** Begin Patch` patch all-or-nothing. Every hunk is parsed, resolved
 * inside the workspace and checked against the files (in memory, in order) before anything is written; if
 * a write still fails midway, the files already written are restored.
 */

import { rmdirSync } from "node:fs";
import { z } from "zod";
import { definePrimitive } from "../define.ts";
import { changeTarget } from "../policy-target.ts";
import type { Workspace } from "../workspace.ts";
import description from "./apply-patch.txt" with { type: "text" };
import { applyChunks } from "./apply-patch-match.ts";
import { type PatchHunk, parsePatch, patchPaths } from "./apply-patch-parser.ts";
import { readFileBytes, removeFile, writeFileAtomic } from "./atomic-write.ts";
import { unifiedDiff } from "./diff.ts";
import { FileError, readTextFile, specialKind, statOrNull } from "./files.ts";

/** What a patch does to one file. `null` means absent (created from nothing, or deleted). */
export interface FileChange {
  abs: string;
  rel: string;
  /** True when a file existed at the path before the patch. */
  existed: boolean;
  /** Text before (null when absent or not readable as text). */
  before: string | null;
  after: string | null;
}

export interface PatchPlan {
  /** One entry per touched file, in the order the patch first touches them. */
  changes: FileChange[];
  /** Codex-style summary lines: `A path`, `M path`, `D path`. */
  summary: string[];
}

const schema = z.object({
  patch: z.string().min(1).describe("The whole patch, from '*** Begin Patch' to '*** End Patch'."),
});
export type ApplyPatchArgs = z.infer<typeof schema>;

export const applyPatchTool = definePrimitive<ApplyPatchArgs>({
  name: "apply_patch",
  description: description.trim(),
  schema,
  readOnly: false,
  policyTarget: (args, ctx) => changeTarget(patchPaths(parsePatch(args.patch)), ctx),
  async preview(args, ctx) {
    return planDiff(await planPatch(args.patch, ctx.workspace), ctx.signal);
  },
  async run(args, ctx) {
    let plan: PatchPlan;
    try {
      plan = await planPatch(args.patch, ctx.workspace);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`${reason}\nThe patch was not applied: no file was changed.`);
    }
    await commitPlan(plan, ctx.workspace);
    return {
      modelText: `Success. Updated the following files:\n${plan.summary.join("\n")}`,
      display: planDiff(plan, ctx.signal),
      isError: false,
    };
  },
});

/** Checks a whole patch against the workspace and computes every file's new content; writes nothing. */
export async function planPatch(patchText: string, workspace: Workspace): Promise<PatchPlan> {
  const hunks = parsePatch(patchText);
  const files = new Map<string, Planned>();
  const summary: string[] = [];

  const entry = async (path: string): Promise<Planned> => {
    const abs = await workspace.resolve(path);
    const known = files.get(abs);
    if (known) return known;
    const rel = workspace.relative(abs);
    const info = await statOrNull(abs);
    if (info?.isDirectory()) throw new FileError(`${rel} is a directory, not a file`);
    const kind = info === null ? null : specialKind(info);
    if (kind !== null) throw new FileError(`${rel} is ${kind}, not a regular file; a patch cannot touch it`);
    const before = info === null ? null : await readTextFile(abs, rel, workspace).catch(() => null);
    const planned: Planned = {
      abs,
      rel,
      existed: info !== null,
      present: info !== null,
      before,
      after: before,
    };
    files.set(abs, planned);
    return planned;
  };

  for (const hunk of hunks) await planHunk(hunk, entry, summary, workspace);
  const changes = [...files.values()].map(({ present: _present, ...change }) => change);
  return { changes, summary };
}

/** A file while a patch is planned: `present` tracks existence as hunks apply in order. */
type Planned = FileChange & { present: boolean };

async function planHunk(
  hunk: PatchHunk,
  entry: (path: string) => Promise<Planned>,
  summary: string[],
  workspace: Workspace,
) {
  const file = await entry(hunk.path);
  if (hunk.kind === "add") {
    file.present = true;
    file.after = hunk.content;
    summary.push(`A ${file.rel}`);
    return;
  }
  if (!file.present) {
    const verb = hunk.kind === "delete" ? "delete" : "update";
    throw new FileError(`cannot ${verb} ${file.rel}: the file does not exist`);
  }
  if (hunk.kind === "delete") {
    file.present = false;
    file.after = null;
    summary.push(`D ${file.rel}`);
    return;
  }
  // `after` is null here only for a file that exists but is not text: reading it names the problem.
  const current = file.after ?? (await readTextFile(file.abs, file.rel, workspace));
  const updated = applyChunks(current, hunk.chunks, file.rel);
  if (hunk.moveTo === undefined) {
    file.after = updated;
    summary.push(`M ${file.rel}`);
    return;
  }
  const dest = await entry(hunk.moveTo);
  file.present = false;
  file.after = null;
  dest.present = true;
  dest.after = updated;
  summary.push(dest === file ? `M ${file.rel}` : `M ${dest.rel} (moved from ${file.rel})`);
}

/** True when committing the change touches the disk. */
function isChange(c: FileChange): boolean {
  if (c.after === null) return c.existed;
  return !c.existed || c.after !== c.before;
}

/** The largest existing file a patch backs up before it replaces or deletes it. */
const MAX_BACKUP_BYTES = 256 * 1024 * 1024;

/**
 * Writes a plan, each file atomically and inside its pinned folder (atomic-write.ts). If a write fails,
 * restores every file already touched (and removes the folders made for them) and rethrows.
 */
export async function commitPlan(plan: PatchPlan, workspace: Workspace): Promise<void> {
  const backups: { change: FileChange; bytes: Buffer | null; created: readonly string[] }[] = [];
  try {
    for (const change of plan.changes) {
      if (!isChange(change)) continue;
      const bytes = change.existed
        ? await readFileBytes(workspace, change.abs, change.rel, MAX_BACKUP_BYTES)
        : null;
      const backup = { change, bytes, created: [] as readonly string[] };
      backups.push(backup);
      if (change.after === null) {
        if (change.existed) removeFile(workspace, change.abs, change.rel);
      } else {
        backup.created = await writeFileAtomic(workspace, change.abs, change.rel, change.after);
      }
    }
  } catch (error) {
    for (const { change, bytes, created } of backups.reverse()) {
      try {
        if (bytes === null) removeFile(workspace, change.abs, change.rel);
        else await writeFileAtomic(workspace, change.abs, change.rel, bytes);
      } catch {
        // best effort: the message below says the restore was tried
      }
      for (const dir of [...created].reverse()) {
        try {
          rmdirSync(dir); // only ever empty folders this patch made
        } catch {
          // not empty, or gone
        }
      }
    }
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`writing the patch failed (${reason}); the files were restored`);
  }
}

/** The unified diffs of every changed file. */
export function planDiff(plan: PatchPlan, signal?: AbortSignal): string {
  return plan.changes
    .filter(isChange)
    .map((c) => unifiedDiff(c.rel, c.existed ? (c.before ?? "(binary file)\n") : null, c.after, signal))
    .join("");
}
