/** A directory walk for grep and glob: sorted, symlinks not followed, heavy or private folders skipped. */

import type { Dirent, Stats } from "node:fs";
import { lstat, readdir } from "node:fs/promises";
import { join } from "node:path";
import { specialKind } from "../files/files.ts";

/** Folders never descended into unless a pattern names them. */
export const SKIPPED_DIRS: readonly string[] = [".git", "node_modules"];

export interface WalkedFile {
  abs: string;
  /** Relative to the walk's start, with `/` separators. */
  rel: string;
  /**
   * The path's bytes, set when a name on it is not valid UTF-8: `abs` and `rel` then show those bytes
   * escaped (`caf\xe9.txt`) and only this opens the file (issue 22: such files were skipped silently).
   */
  raw?: Buffer;
  /** Set for a FIFO, socket or device ("a FIFO"): never to be opened, only reported as skipped. */
  special?: string;
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** A file name for display: itself when valid UTF-8, else with each invalid byte as `\xNN`. */
export function escapedName(bytes: Buffer): string {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    let out = "";
    for (let i = 0; i < bytes.length; ) {
      const width = utf8Width(bytes, i);
      if (width > 0) {
        out += bytes.subarray(i, i + width).toString("utf8");
        i += width;
      } else {
        out += `\\x${(bytes[i] ?? 0).toString(16).padStart(2, "0")}`;
        i += 1;
      }
    }
    return out;
  }
}

/** Length of the valid UTF-8 sequence at `i`, or 0. */
function utf8Width(bytes: Buffer, i: number): number {
  const b = bytes[i] ?? 0;
  const width =
    b < 0x80 ? 1 : b >= 0xc2 && b < 0xe0 ? 2 : b >= 0xe0 && b < 0xf0 ? 3 : b >= 0xf0 && b < 0xf5 ? 4 : 0;
  if (width <= 1 || i + width > bytes.length) return width === 1 ? 1 : 0;
  try {
    strictUtf8.decode(bytes.subarray(i, i + width));
    return width;
  } catch {
    return 0;
  }
}

interface Entry {
  name: string;
  raw?: Buffer;
  kind: Pick<
    Stats,
    | "isFile"
    | "isDirectory"
    | "isSymbolicLink"
    | "isFIFO"
    | "isSocket"
    | "isCharacterDevice"
    | "isBlockDevice"
  >;
}

interface Folder {
  rel: string;
  /** Bytes of the folder's absolute path when a name on it is not valid UTF-8. */
  raw?: Buffer;
}

/** A folder's entries; names that are not valid UTF-8 come with their bytes (and a stat of them). */
async function entriesOf(dir: string, folder: Folder): Promise<Entry[]> {
  const where = folder.raw ?? join(dir, folder.rel);
  const dirents = (await readdir(where, { withFileTypes: true })) as Dirent[];
  if (folder.raw === undefined && !dirents.some((d) => d.name.includes("\uFFFD"))) {
    return dirents.map((d) => ({ name: d.name, kind: d }));
  }
  // Some name did not decode: read the names as bytes and keep them for the open.
  const base = folder.raw ?? Buffer.from(join(dir, folder.rel));
  const names = (await readdir(base, { encoding: "buffer" })) as Buffer[];
  const out: Entry[] = [];
  for (const bytes of names) {
    const raw = Buffer.concat([base, Buffer.from("/"), bytes]);
    const kind = await lstat(raw).catch(() => null);
    if (kind === null) continue;
    const name = escapedName(bytes);
    const valid = folder.raw === undefined && !name.includes("\\x") && name === bytes.toString("utf8");
    out.push(valid ? { name, kind } : { name, raw, kind });
  }
  return out;
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
  const stack: Folder[] = [{ rel: "" }];
  while (stack.length > 0) {
    if (options.signal?.aborted) return;
    const folder = stack.pop() ?? { rel: "" };
    let entries: Entry[];
    try {
      entries = await entriesOf(dir, folder);
    } catch {
      continue; // unreadable folder: skip it
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subdirs: Folder[] = [];
    for (const { name, raw, kind } of entries) {
      const rel = folder.rel === "" ? name : `${folder.rel}/${name}`;
      const at = raw ? { raw } : {};
      if (kind.isDirectory()) {
        if (!skip.has(name)) subdirs.push({ rel, ...at });
      } else if (kind.isFile()) {
        yield { abs: join(dir, rel), rel, ...at };
      } else if (!kind.isSymbolicLink()) {
        yield { abs: join(dir, rel), rel, ...at, special: specialKind(kind) ?? "not a regular file" };
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
