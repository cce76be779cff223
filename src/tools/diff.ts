/** Unified diffs for what a write, edit or patch does to a file. */

import { createTwoFilesPatch, FILE_HEADERS_ONLY } from "diff";

/** A unified diff of one file; `null` content means the file is absent (created or deleted). */
export function unifiedDiff(relPath: string, before: string | null, after: string | null): string {
  const oldName = before === null ? "/dev/null" : `a/${relPath}`;
  const newName = after === null ? "/dev/null" : `b/${relPath}`;
  return createTwoFilesPatch(oldName, newName, before ?? "", after ?? "", undefined, undefined, {
    headerOptions: FILE_HEADERS_ONLY,
    context: 3,
  });
}
