/**
 * Unified diffs for what a write, edit or patch does to a file, with bounded cost. jsdiff's Myers diff
 * costs about (N+M)·D for N and M lines and D changed lines, so an 8,000-line rewrite took 49 s and could
 * not be interrupted (it runs synchronously). Here the common first and last lines are skipped first (cheap);
 * when the lines that differ span more than MAX_CHANGED_LINES, no diff is computed and a note says so;
 * otherwise jsdiff runs with `maxEditLength` and `timeout` (node_modules/diff/libesm/types.d.ts, diff 9.0.0:
 * "the diffing algorithm will abort and return `undefined`"), and gives the same note when it gives up.
 * A run already aborted gets the note at once, so no diff ever outlasts an interrupt by more than the timeout.
 */

import { createTwoFilesPatch, FILE_HEADERS_ONLY } from "diff";

/** Past this many differing lines (old and new together) the diff is not computed. */
export const MAX_CHANGED_LINES = 4_000;
/** jsdiff's own bounds for what is left: edit distance in lines, and milliseconds. */
const MAX_EDIT_LENGTH = 2_000;
const DIFF_TIMEOUT_MS = 2_000;

/** A unified diff of one file; `null` content means the file is absent (created or deleted). */
export function unifiedDiff(
  relPath: string,
  before: string | null,
  after: string | null,
  signal?: AbortSignal,
): string {
  const oldName = before === null ? "/dev/null" : `a/${relPath}`;
  const newName = after === null ? "/dev/null" : `b/${relPath}`;
  const oldText = before ?? "";
  const newText = after ?? "";
  const header = `--- ${oldName}\n+++ ${newName}\n`;
  if (signal?.aborted) return `${header}(diff not shown: the run was interrupted)\n`;
  const changed = changedLines(oldText, newText);
  if (changed.old + changed.new > MAX_CHANGED_LINES) return `${header}${tooLarge(changed)}`;
  const patch = createTwoFilesPatch(oldName, newName, oldText, newText, undefined, undefined, {
    headerOptions: FILE_HEADERS_ONLY,
    context: 3,
    maxEditLength: MAX_EDIT_LENGTH,
    timeout: DIFF_TIMEOUT_MS,
  });
  return patch ?? `${header}${tooLarge(changed)}`;
}

function tooLarge(changed: { old: number; new: number }): string {
  return (
    `(diff not shown: ${changed.old} old and ${changed.new} new lines differ, more than the ` +
    `${MAX_CHANGED_LINES} a diff is computed for)\n`
  );
}

/** How many lines of each text lie between their common first and common last lines. */
export function changedLines(before: string, after: string): { old: number; new: number } {
  const a = before.split("\n");
  const b = after.split("\n");
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end])
    end++;
  return { old: a.length - start - end, new: b.length - start - end };
}
