/** File helpers shared by the file primitives: text reads with clear errors, binary sniffing, writes. */

import type { Stats } from "node:fs";
import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { dirname } from "node:path";

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

/** Reads a UTF-8 text file; errors name the path and say what it is instead (missing, directory, binary). */
export async function readTextFile(absPath: string, relPath: string): Promise<string> {
  const info = await statOrNull(absPath);
  if (info === null) throw new FileError(`file not found: ${relPath}`);
  if (info.isDirectory()) throw new FileError(`${relPath} is a directory, not a file (use glob to list it)`);
  if (!info.isFile()) throw new FileError(`${relPath} is not a regular file`);
  if (info.size > MAX_TEXT_FILE_BYTES) {
    throw new FileError(`${relPath} is too large (${info.size} bytes; limit ${MAX_TEXT_FILE_BYTES})`);
  }
  const bytes = await readFile(absPath);
  if (looksBinary(bytes)) throw new FileError(`${relPath} is a binary file`);
  return bytes.toString("utf8");
}

/** The text of a file, or null when nothing exists at the path. */
export async function readTextIfExists(absPath: string, relPath: string): Promise<string | null> {
  if ((await statOrNull(absPath)) === null) return null;
  return readTextFile(absPath, relPath);
}

/** Writes a file, creating its parent directories. */
export async function writeTextFile(absPath: string, content: string): Promise<void> {
  await mkdir(dirname(absPath), { recursive: true });
  await writeFile(absPath, content, "utf8");
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
