/**
 * File helpers shared by the file primitives: text reads with clear errors, binary sniffing (writes: atomic-write.ts).
 * Only regular files are ever opened: a FIFO, socket or device in the workspace is refused by what stat
 * says before any open, and every open is non-blocking with the opened file checked again (fstat), so a
 * file swapped for a FIFO in between cannot make a read or write wait forever.
 */

import type { Stats } from "node:fs";
import { stat } from "node:fs/promises";
import { basename, dirname } from "node:path";
import { readRegularFile, specialKind } from "../../kernel/files/regular-file.ts";
import type { Workspace } from "../workspace.ts";
import { FileError } from "./file-error.ts";
import { code, openPinnedDir } from "./pinned-dir.ts";

/** Files larger than this are refused by read/edit (the model cannot use them whole anyway). */
export const MAX_TEXT_FILE_BYTES = 20 * 1024 * 1024;
const SNIFF_BYTES = 8_192;

export { FileError };

/** True when the first bytes hold a NUL (how git and grep tell binary files). */
export function looksBinary(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, SNIFF_BYTES);
  for (let i = 0; i < end; i++) if (bytes[i] === 0) return true;
  return false;
}

export type { RegularRead } from "../../kernel/files/regular-file.ts";
export { readRegularFile, specialKind };

/**
 * Reads a UTF-8 text file; errors name the path and say what it is instead (missing, directory, FIFO,
 * binary). With the `workspace` that resolved `absPath`, the file is opened inside its pinned directory
 * (pinned-dir.ts) without following a symlink, so a concurrent swap cannot make it read another file.
 */
export async function readTextFile(absPath: string, relPath: string, workspace?: Workspace): Promise<string> {
  if (workspace === undefined) {
    // readRegularFile stats the path first; a missing file is its stat's ENOENT (one stat per read, not two).
    const read = await readRegularFile(absPath, MAX_TEXT_FILE_BYTES).catch((error: unknown) => {
      if (isMissing(error)) throw new FileError(`file not found: ${relPath}`);
      throw error;
    });
    return decodeText(read, relPath);
  }
  let dir: ReturnType<typeof openPinnedDir>;
  try {
    dir = openPinnedDir(workspace, dirname(absPath), relPath, false);
  } catch (error) {
    if (code(error) === "ENOENT") throw new FileError(`file not found: ${relPath}`);
    throw error;
  }
  try {
    return decodeText(
      await readRegularFile(dir.path(basename(absPath)), MAX_TEXT_FILE_BYTES, { noFollow: true }),
      relPath,
    );
  } catch (error) {
    if (code(error) === "ENOENT") throw new FileError(`file not found: ${relPath}`);
    throw error;
  } finally {
    dir.close();
  }
}

function decodeText(read: Awaited<ReturnType<typeof readRegularFile>>, relPath: string): string {
  if (!read.ok && read.why === "special") {
    if (read.kind === "a directory") {
      throw new FileError(`${relPath} is a directory, not a file (use glob to list it)`);
    }
    throw new FileError(`${relPath} is ${read.kind}, not a regular file; only regular files are read`);
  }
  if (!read.ok) {
    throw new FileError(`${relPath} is too large (${read.size} bytes; limit ${MAX_TEXT_FILE_BYTES})`);
  }
  if (looksBinary(read.bytes)) throw new FileError(`${relPath} is a binary file`);
  return read.bytes.toString("utf8");
}

/** The text of a file, or null when nothing exists at the path. */
export async function readTextIfExists(
  absPath: string,
  relPath: string,
  workspace?: Workspace,
): Promise<string | null> {
  if ((await statOrNull(absPath)) === null) return null;
  return readTextFile(absPath, relPath, workspace);
}

export async function statOrNull(absPath: string): Promise<Stats | null> {
  try {
    return await stat(absPath);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return null;
    throw error;
  }
}

/** A missing file, or a path through a file (`a.txt/b`): both read as "file not found". */
function isMissing(error: unknown): boolean {
  const errno = (error as NodeJS.ErrnoException | undefined)?.code;
  return errno === "ENOENT" || errno === "ENOTDIR";
}
