/**
 * One process at a time per session: a lock file `<id>.lock` beside the transcript, created exclusively
 * (O_CREAT|O_EXCL, `wx`) and holding the owner's pid. A second `--resume` of a session that is still
 * running is refused with the owner's pid; a lock whose pid is no longer alive (a crash, SIGKILL) is
 * stale and taken over.
 */
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { AppError } from "../kernel/errors.ts";

/** A held lock; `release` removes the file if it is still ours. Safe to call twice. */
export interface SessionLock {
  readonly path: string;
  release(): void;
}

/** True while a process with this pid exists (EPERM: it exists but belongs to another user). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function ownerOf(path: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(path, "utf8").trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Creates the lock file exclusively; false when it already exists. Other failures throw. */
function create(path: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, "wx", 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
  try {
    writeSync(fd, `${process.pid}\n`);
  } finally {
    closeSync(fd);
  }
  return true;
}

/**
 * Takes the lock of session `id` at `path`, or throws AppError("session") naming the process that holds
 * it. Errors of the file system itself (ENOSPC, EACCES) are thrown as they are, for the caller to name.
 */
export function lockSession(id: string, path: string): SessionLock {
  for (let attempt = 0; !create(path); attempt++) {
    const owner = ownerOf(path);
    if (owner !== undefined && alive(owner)) {
      throw new AppError(
        "session",
        `session ${id} is in use by process ${owner} (lock ${path}); wait for that run to end before resuming it`,
        { file: path },
      );
    }
    // A lock being written this instant has no pid yet: give its writer one more look before taking over.
    if (attempt >= 2) {
      throw new AppError("session", `cannot take the lock of session ${id} at ${path}`, { file: path });
    }
    // Stale: remove it only if it still names the dead owner, so two takers do not remove each other's.
    if (owner === undefined && attempt === 0) continue;
    if (ownerOf(path) === owner) {
      try {
        unlinkSync(path);
      } catch {
        // Another taker removed it first; the next exclusive create decides.
      }
    }
  }
  let held = true;
  return {
    path,
    release() {
      if (!held) return;
      held = false;
      if (ownerOf(path) !== process.pid) return;
      try {
        unlinkSync(path);
      } catch {
        // Already gone: nothing to release.
      }
    },
  };
}
