/**
 * File helpers shared by the file primitives: text reads with clear errors, binary sniffing, writes.
 * Only regular files are ever opened: a FIFO, socket or device in the workspace is refused by what stat
 * says before any open, and every open is non-blocking with the opened file checked again (fstat), so a
 * file swapped for a FIFO in between cannot make a read or write wait forever.
 */

import { constants, type Stats } from "node:fs";
import { mkdir, open, stat } from "node:fs/promises";
import { dirname } from "node:path";
import { readRegularFile, specialKind } from "../kernel/regular-file.ts";

/** Files larger than this are refused by read/edit (the model cannot use them whole anyway). */
export const MAX_TEXT_FILE_BYTES = 20 * 1024 * 1024;
const SNIFF_BYTES = 8_192;

/** A file operation that failed for a reason the model can act on. */
export class FileError extends Error {
  override name = "FileError";
}

/** True when the first bytes hold a NUL (how git and grep tell binary files). */
export function looksBinary(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, SNIFF_BYTES);
  for (let i = 0; i < end; i++) if (bytes[i] === 0) return true;
  return false;
}

export type { RegularRead } from "../kernel/regular-file.ts";
export { readRegularFile, specialKind };

/** Reads a UTF-8 text file; errors name the path and say what it is instead (missing, directory, FIFO, binary). */
export async function readTextFile(absPath: string, relPath: string): Promise<string> {
  // readRegularFile stats the path first; a missing file is its stat's ENOENT (one stat per read, not two).
  const read = await readRegularFile(absPath, MAX_TEXT_FILE_BYTES).catch((error: unknown) => {
    if (isMissing(error)) throw new FileError(`file not found: ${relPath}`);
    throw error;
  });
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
export async function readTextIfExists(absPath: string, relPath: string): Promise<string | null> {
  if ((await statOrNull(absPath)) === null) return null;
  return readTextFile(absPath, relPath);
}

/** Writes a file, creating its parent directories; refuses to write into a FIFO, socket or device. */
export async function writeTextFile(absPath: string, content: string): Promise<void> {
  const existing = await statOrNull(absPath);
  const kind = existing === null ? null : specialKind(existing);
  if (kind !== null)
    throw new FileError(`${absPath} is ${kind}, not a regular file; only regular files are written`);
  await mkdir(dirname(absPath), { recursive: true });
  // O_NONBLOCK: a FIFO that appeared since the stat fails the open (ENXIO) instead of waiting for a reader.
  const handle = await open(
    absPath,
    constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NONBLOCK,
    0o666,
  );
  try {
    const kindNow = specialKind(await handle.stat());
    if (kindNow !== null)
      throw new FileError(`${absPath} is ${kindNow}, not a regular file; only regular files are written`);
    await handle.writeFile(content, "utf8");
  } finally {
    await handle.close();
  }
}

export async function statOrNull(absPath: string): Promise<Stats | null> {
  try {
    return await stat(absPath);
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

/** Nothing at the path: ENOENT, or ENOTDIR (a file where a folder of the path should be). */
function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}
