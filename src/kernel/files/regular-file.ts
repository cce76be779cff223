/**
 * The one way anything in `agent` opens a file it did not create: only regular files, never a read that
 * waits, never a read without bound. The path is checked with stat before it is opened, opened with
 * O_NONBLOCK (a FIFO swapped in after the check cannot block the open), checked again on the open
 * descriptor (fstat), and read for at most `maxBytes + 1` bytes. Used by the file primitives
 * (src/tools/files/files.ts) and by the config/spec reader (config-file.ts).
 */
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readSync,
  type Stats,
  statSync,
} from "node:fs";
import { lstat, open, stat } from "node:fs/promises";

type KindFacts = Pick<
  Stats,
  "isFile" | "isDirectory" | "isFIFO" | "isSocket" | "isCharacterDevice" | "isBlockDevice"
>;

/** What a file that is not a regular file is, for messages ("a FIFO"); null for a regular file. */
export function specialKind(info: KindFacts & Partial<Pick<Stats, "isSymbolicLink">>): string | null {
  if (info.isFile()) return null;
  if (info.isSymbolicLink?.()) return "a symbolic link";
  if (info.isDirectory()) return "a directory";
  if (info.isFIFO()) return "a FIFO";
  if (info.isSocket()) return "a socket";
  if (info.isCharacterDevice()) return "a character device";
  if (info.isBlockDevice()) return "a block device";
  return "not a regular file";
}

/** The bytes of a regular file, or why they were not read. */
export type RegularRead =
  | {
      ok: true;
      bytes: Buffer /** Set by a `head` read of a larger file: more than `bytes` were there. */;
      size?: number;
    }
  | { ok: false; why: "special"; kind: string }
  | { ok: false; why: "too-large"; size: number };

/**
 * Reads a regular file of at most `maxBytes`; a FIFO, socket or device is reported, never opened for a read
 * that waits. With `noFollow`, a symlink in the last component is reported too (lstat, O_NOFOLLOW): the
 * file tools use it on a path they already resolved, where a symlink can only be a concurrent swap. With
 * `head`, a larger file is not refused: its first `maxBytes` come back, with `size` (its length as read,
 * at least `maxBytes + 1`) saying it was cut.
 */
export async function readRegularFile(
  absPath: string,
  maxBytes: number,
  options: { noFollow?: boolean; head?: boolean } = {},
): Promise<RegularRead> {
  const limit = options.head ? Number.POSITIVE_INFINITY : maxBytes;
  const before = checkRegular(await (options.noFollow ? lstat : stat)(absPath), limit);
  if (before !== null) return before;
  const flags = constants.O_RDONLY | constants.O_NONBLOCK | (options.noFollow ? constants.O_NOFOLLOW : 0);
  const handle = await open(absPath, flags);
  try {
    const after = await handle.stat();
    const refused = checkRegular(after, limit);
    if (refused !== null) return refused;
    const read = new BoundedRead(maxBytes, after.size);
    for (let done = false; !done; )
      done = read.took((await handle.read(read.buffer, read.length, read.room, read.length)).bytesRead);
    const { buffer, length } = read;
    // Only the bytes read are returned; the rest of the unzeroed buffer is never exposed.
    if (length > maxBytes) {
      if (options.head) return { ok: true, bytes: buffer.subarray(0, maxBytes), size: length };
      return { ok: false, why: "too-large", size: length };
    }
    return { ok: true, bytes: buffer.subarray(0, length) };
  } finally {
    await handle.close();
  }
}

/**
 * readRegularFile without the thread-pool round trips, for many small files read in a row at start-up
 * (skill discovery: 200 SKILL.md files cost about 20 ms of CPU asynchronously, a few ms this way). The
 * same checks: stat, a non-blocking open (a FIFO can never block it), fstat, a read bounded by the limit.
 */
export function readRegularFileSync(
  absPath: string,
  maxBytes: number,
  options: { noFollow?: boolean } = {},
): RegularRead {
  const before = checkRegular((options.noFollow ? lstatSync : statSync)(absPath), maxBytes);
  if (before !== null) return before;
  const flags = constants.O_RDONLY | constants.O_NONBLOCK | (options.noFollow ? constants.O_NOFOLLOW : 0);
  const fd = openSync(absPath, flags);
  try {
    const after = fstatSync(fd);
    const refused = checkRegular(after, maxBytes);
    if (refused !== null) return refused;
    const read = new BoundedRead(maxBytes, after.size);
    for (let done = false; !done; )
      done = read.took(readSync(fd, read.buffer, read.length, read.room, read.length));
    const { buffer, length } = read;
    if (length > maxBytes) return { ok: false, why: "too-large", size: length };
    return { ok: true, bytes: buffer.subarray(0, length) };
  } finally {
    closeSync(fd);
  }
}

/**
 * The buffer of one bounded read, filled from `length` on: sized by the fstat (a buffer of the limit is
 * 20 MiB zero-filled per read: it dominated a long session's turns), grown while the file grows after the
 * fstat, and bounded by the limit all the same (at most `maxBytes + 1` bytes: one more says "larger").
 */
class BoundedRead {
  buffer: Buffer;
  length = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly statSize: number,
  ) {
    this.buffer = Buffer.allocUnsafe(Math.min(maxBytes, statSize) + 1);
  }

  /** Room left in the buffer after `length`. */
  get room(): number {
    return this.buffer.length - this.length;
  }

  /** Counts the bytes a read put at `length`; true when reading is over (end of file, or past the limit). */
  took(bytesRead: number): boolean {
    if (bytesRead === 0) return true;
    this.length += bytesRead;
    if (this.length < this.buffer.length) return readAll(this.length, this.statSize);
    if (this.buffer.length > this.maxBytes) return true;
    const grown = Buffer.allocUnsafe(Math.min(this.maxBytes + 1, this.buffer.length * 2));
    this.buffer.copy(grown, 0, 0, this.length);
    this.buffer = grown;
    return false;
  }
}

/**
 * True once the bytes fstat counted are all read: the read that would only confirm the end is skipped
 * (one thread-pool round trip per file tool call). A file fstat calls empty (/proc, /sys) is read to its
 * end, since its size says nothing; one that grows after the fstat is read as it was then.
 */
function readAll(length: number, statSize: number): boolean {
  return statSize > 0 && length >= statSize;
}

function checkRegular(info: Stats, maxBytes: number): RegularRead | null {
  const kind = specialKind(info);
  if (kind !== null) return { ok: false, why: "special", kind };
  if (info.size > maxBytes) return { ok: false, why: "too-large", size: info.size };
  return null;
}
