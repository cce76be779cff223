/**
 * A lock between processes on one file: `PATH.lock`, created with O_EXCL (`wx`: exactly one creator wins,
 * on every local filesystem) and holding the owner's pid. Waiters poll; a lock whose owner is gone (no
 * such pid) or that is older than `staleMs` is taken over, so a crashed holder never blocks for ever.
 * Used to read-modify-write small state files (OAuth token records) that several runs may change at once.
 */
import { open, readFile, rm, stat } from "node:fs/promises";

export interface FileLockOptions {
  /** A lock older than this is a holder that hung or died without cleaning up (default 60 s). */
  staleMs?: number;
  /** Give up waiting after this long (default 90 s): an error naming the lock file. */
  waitMs?: number;
}

/** Runs `work` while holding the lock of `path`; the lock is released however `work` ends. */
export async function withFileLock<T>(
  path: string,
  work: () => Promise<T>,
  options: FileLockOptions = {},
): Promise<T> {
  const lock = `${path}.lock`;
  const staleMs = options.staleMs ?? 60_000;
  const deadline = Date.now() + (options.waitMs ?? 90_000);
  for (let attempt = 0; ; attempt++) {
    try {
      const handle = await open(lock, "wx", 0o600);
      await handle.writeFile(`${process.pid}\n`);
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      if (await abandoned(lock, staleMs)) {
        await rm(lock, { force: true });
        continue;
      }
      if (Date.now() > deadline)
        throw new Error(`${lock} is still held by another process; remove it if none runs`);
      const pause = Math.min(200, 10 * 2 ** Math.min(attempt, 4)) + Math.random() * 10;
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
  try {
    return await work();
  } finally {
    await rm(lock, { force: true });
  }
}

/** The lock's holder is gone (its pid does not exist) or has held it past `staleMs`. */
async function abandoned(lock: string, staleMs: number): Promise<boolean> {
  try {
    const [info, text] = await Promise.all([stat(lock), readFile(lock, "utf8")]);
    if (Date.now() - info.mtimeMs > staleMs) return true;
    const pid = Number.parseInt(text, 10);
    // An empty file is a holder between its create and its write: not abandoned.
    if (!Number.isInteger(pid) || pid <= 0) return false;
    try {
      process.kill(pid, 0);
      return false;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === "ESRCH";
    }
  } catch {
    // Gone between our create and this look: try again.
    return false;
  }
}
