/**
 * Writes a whole file so that it is either the new content or untouched: the bytes go to a temporary file
 * created exclusively (O_EXCL|O_NOFOLLOW) in the same pinned directory (pinned-dir.ts), are flushed with
 * fsync, and only then renamed over the target (rename(2) replaces atomically, and never follows a symlink
 * at the new name). A SIGKILL, a full disk or any other failure leaves the original as it was, and the
 * temporary file is removed. The original's permission bits (and, when root writes, its owner) are kept.
 * Hard links to the old file keep the old content: the name now points to a new file.
 */
import { randomBytes } from "node:crypto";
import { constants, lstatSync, type Stats, unlinkSync } from "node:fs";
import { open, rename } from "node:fs/promises";
import { basename, dirname } from "node:path";
import { readRegularFile, specialKind } from "../../kernel/files/regular-file.ts";
import type { Workspace } from "../workspace.ts";
import { FileError } from "./file-error.ts";
import { code, openPinnedDir, type PinnedDir } from "./pinned-dir.ts";

const TEMP_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/** Plain words for the failures a write meets (errno(3)); other errors keep their own message. */
const REASONS: Record<string, string> = {
  ENOSPC: "no space left on device",
  EDQUOT: "disk quota exceeded",
  EROFS: "read-only file system",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  EFBIG: "file too large",
  EIO: "input/output error",
};

/**
 * Writes `content` to `abs` (a real path the workspace resolved; `rel` is how messages name it), creating
 * missing parent folders inside the workspace. Throws FileError saying the file is unchanged on failure.
 * Resolves to the folders it created, outermost first.
 */
export async function writeFileAtomic(
  workspace: Workspace,
  abs: string,
  rel: string,
  content: string | Uint8Array,
): Promise<readonly string[]> {
  const dir = openPinnedDir(workspace, dirname(abs), rel, true);
  try {
    const name = basename(abs);
    const existing = lstatOrNull(dir.path(name));
    if (existing?.isSymbolicLink())
      throw new FileError(`${rel} changed while in use (it is now a symbolic link); ${rel} was not written`);
    const kind = existing === null ? null : specialKind(existing);
    if (kind !== null)
      throw new FileError(`${rel} is ${kind}, not a regular file; only regular files are written`);
    await replace(dir, name, content, existing).catch((error: unknown) => {
      throw new FileError(
        `not written: ${reason(error)}; ${rel} ${existing ? "is unchanged" : "was not created"}`,
      );
    });
    return dir.created;
  } finally {
    dir.close();
  }
}

/** The temp-file, fsync, rename sequence in `dir`; removes the temporary file on any failure. */
async function replace(dir: PinnedDir, name: string, content: string | Uint8Array, existing: Stats | null) {
  const temp = dir.path(`.${name}.${randomBytes(6).toString("hex")}.agent-tmp`);
  const mode = existing === null ? 0o666 : existing.mode & 0o7777;
  const handle = await open(temp, TEMP_FLAGS, mode);
  try {
    try {
      if (existing !== null) {
        await handle.chmod(mode); // the umask applied at create must not narrow a kept mode
        if (process.getuid?.() === 0) await handle.chown(existing.uid, existing.gid).catch(() => {});
      }
      await handle.writeFile(content);
      await handle.sync();
    } finally {
      await handle.close();
    }
    dir.verify();
    await rename(temp, dir.path(name));
  } catch (error) {
    try {
      unlinkSync(temp);
    } catch {
      // already renamed, or never made
    }
    throw error;
  }
}

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch (error) {
    if (code(error) === "ENOENT") return null;
    throw error;
  }
}

/** What went wrong, in the words the model is told. */
export function reason(error: unknown): string {
  if (error instanceof FileError) return error.message;
  const known = REASONS[code(error) ?? ""];
  if (known !== undefined) return known;
  return error instanceof Error ? error.message : String(error);
}

/** Removes the file `abs` (its last component never followed); a missing file is not an error. */
export function removeFile(workspace: Workspace, abs: string, rel: string): void {
  const dir = openPinnedDir(workspace, dirname(abs), rel, false);
  try {
    unlinkSync(dir.path(basename(abs)));
  } catch (error) {
    if (code(error) !== "ENOENT") throw error;
  } finally {
    dir.close();
  }
}

/** The bytes of the regular file `abs` read inside its pinned folder, at most `maxBytes`. */
export async function readFileBytes(
  workspace: Workspace,
  abs: string,
  rel: string,
  maxBytes: number,
): Promise<Buffer> {
  const dir = openPinnedDir(workspace, dirname(abs), rel, false);
  try {
    const read = await readRegularFile(dir.path(basename(abs)), maxBytes, { noFollow: true });
    if (read.ok) return read.bytes;
    throw new FileError(
      read.why === "special" ? `${rel} is ${read.kind}` : `${rel} is too large (${read.size} bytes)`,
    );
  } finally {
    dir.close();
  }
}
