/** A directory walk for grep and glob: sorted, symlinks not followed, heavy or private folders skipped. */

import type { Dirent } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { specialKind } from "./files.ts";

/** Folders never descended into unless a pattern names them. */
export const SKIPPED_DIRS: readonly string[] = [".git", "node_modules"];

export interface WalkedFile {
  abs: string;
  /** Relative to the walk's start, with `/` separators. */
  rel: string;
  /** Set for a FIFO, socket or device ("a FIFO"): never to be opened, only reported as skipped. */
  special?: string;
}

/**
 * Yields every regular file below `dir`, and every FIFO, socket or device marked `special` (so callers can
 * say they skipped it). Symlinks are not followed, so the walk stays where it started.
 */
export async function* walkFiles(
  dir: string,
  options: { skip?: readonly string[]; signal?: AbortSignal } = {},
): AsyncGenerator<WalkedFile> {
  const skip = new Set(options.skip ?? SKIPPED_DIRS);
  const stack: string[] = [""];
  while (stack.length > 0) {
    if (options.signal?.aborted) return;
    const relDir = stack.pop() ?? "";
    let entries: Dirent[];
    try {
      entries = await readdir(join(dir, relDir), { withFileTypes: true });
    } catch {
      continue; // unreadable folder: skip it
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subdirs: string[] = [];
    for (const entry of entries) {
      const rel = relDir === "" ? entry.name : `${relDir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!skip.has(entry.name)) subdirs.push(rel);
      } else if (entry.isFile()) {
        yield { abs: join(dir, rel), rel };
      } else if (!entry.isSymbolicLink()) {
        yield { abs: join(dir, rel), rel, special: specialKind(entry) ?? "not a regular file" };
      }
    }
    // Reverse so the stack pops them in sorted order.
    for (const sub of subdirs.reverse()) stack.push(sub);
  }
}

/** The skip list for a pattern: a folder the pattern names explicitly is searched. */
export function skipListFor(pattern: string | undefined): string[] {
  return SKIPPED_DIRS.filter((name) => !(pattern ?? "").includes(name));
}
