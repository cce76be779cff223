/**
 * The search behind grep, run inside a worker (grep-runner.ts) so a pattern that backtracks
 * catastrophically can be stopped: a regular expression over the text files under a path, with the
 * files it did not search (too large, binary is silent, FIFOs and devices) reported, never opened.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { looksBinary, specialKind } from "../files/files.ts";
import { cutLine } from "../truncate.ts";
import { type WalkedFile, walkFiles } from "./walk.ts";

/** Matching lines returned at most. */
export const GREP_MAX_MATCHES = 200;
/** Characters of a matching line shown. */
const GREP_LINE_LIMIT = 400;
/** Files larger than this are not searched (and are named as skipped). */
export const GREP_MAX_FILE_BYTES = 5 * 1024 * 1024;

/** What to search: everything here crosses to the worker as plain data. */
export interface GrepRequest {
  pattern: string;
  /** Real absolute path of the file or directory to search. */
  base: string;
  isDirectory: boolean;
  glob?: string;
  /** Folder names the walk does not enter. */
  skip: string[];
}

export interface GrepHit {
  abs: string;
  line: number;
  text: string;
}

/** How far a search got: what a time-out note reports. `total` is unknown while files are being listed. */
export interface GrepProgress {
  /** Files found so far by the listing. */
  listed: number;
  searched: number;
  total?: number;
  matches: number;
}

export interface GrepReply {
  hits: GrepHit[];
  /** More matches existed than GREP_MAX_MATCHES. */
  capped: boolean;
  /** Files not searched and why ("too large: 6291456 bytes", "a FIFO"). */
  skipped: { abs: string; why: string }[];
}

/** The text a pattern without regular-expression syntax must contain, for a quick per-file test. */
function literalOf(pattern: string): string | undefined {
  return /[\\^$.*+?()[\]{}|]/.test(pattern) ? undefined : pattern;
}

/** The pattern as a RegExp; `(?i)` in front ignores case. Throws a message naming the pattern. */
export function compilePattern(pattern: string): RegExp {
  const ignoreCase = pattern.startsWith("(?i)");
  const source = ignoreCase ? pattern.slice(4) : pattern;
  try {
    return new RegExp(source, ignoreCase ? "i" : "");
  } catch (error) {
    throw new Error(`invalid regular expression /${pattern}/: ${(error as Error).message}`);
  }
}

/** A glob without `/` matches a file name at any depth (like ripgrep's --glob); otherwise the relative path. */
export function globFilter(glob: string): (rel: string) => boolean {
  const matcher = new Bun.Glob(glob);
  const byName = !glob.includes("/");
  return (rel) => matcher.match(rel) || (byName && matcher.match(rel.slice(rel.lastIndexOf("/") + 1)));
}

/**
 * Lists the files first (so progress can say "N of M"), then searches them, telling `onProgress` every
 * few hundred files. One read buffer serves every file (a fresh zero-filled 5 MiB buffer per file made a
 * tree of small files take 1.5 ms a file, issue 22), and a pattern without regular-expression syntax
 * skips a file that does not contain it before splitting it into lines.
 */
export async function searchFiles(
  request: GrepRequest,
  onProgress: (progress: GrepProgress) => void = () => {},
): Promise<GrepReply> {
  const regex = compilePattern(request.pattern);
  const literal = regex.flags.includes("i") ? undefined : literalOf(request.pattern);
  const filter = request.glob === undefined ? null : globFilter(request.glob);
  const walk = request.isDirectory ? walkFiles(request.base, { skip: request.skip }) : single(request.base);
  const reply: GrepReply = { hits: [], capped: false, skipped: [] };
  const files: WalkedFile[] = [];
  let listed = 0;
  for await (const file of walk) {
    if (++listed % 5000 === 0) onProgress({ listed, searched: 0, matches: 0 });
    if (filter && !filter(file.rel)) continue;
    if (file.special !== undefined) reply.skipped.push({ abs: file.abs, why: file.special });
    else files.push(file);
  }
  const reader = new FileReader(GREP_MAX_FILE_BYTES);
  for (const [n, file] of files.entries()) {
    if (n % 500 === 0) onProgress({ listed, searched: n, total: files.length, matches: reply.hits.length });
    const text = reader.text(file, reply);
    if (text === null || (literal !== undefined && !text.includes(literal))) continue;
    const lines = text.split("\n");
    for (let i = 0; i < lines.length; i++) {
      const line = (lines[i] ?? "").replace(/\r$/, "");
      if (!regex.test(line)) continue;
      if (reply.hits.length >= GREP_MAX_MATCHES) {
        reply.capped = true;
        return reply;
      }
      reply.hits.push({ abs: file.abs, line: i + 1, text: cutLine(line, GREP_LINE_LIMIT) });
    }
  }
  return reply;
}

/**
 * Reads regular files into one reused buffer (never zero-filled: only the bytes read are used). Opens
 * with O_NONBLOCK and O_NOFOLLOW and checks the descriptor (fstat), so a FIFO or a symlink swapped in
 * after the walk is neither waited on nor followed. Synchronous: it runs in grep's worker.
 */
class FileReader {
  private readonly buffer: Buffer;

  constructor(private readonly maxBytes: number) {
    this.buffer = Buffer.allocUnsafe(maxBytes + 1);
  }

  /** The text of a file worth searching; null for binary files (silently) and skipped ones (noted). */
  text(file: WalkedFile, reply: GrepReply): string | null {
    let fd: number;
    try {
      fd = openSync(file.raw ?? file.abs, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
    } catch {
      return null; // vanished, unreadable or swapped for a symlink since the walk
    }
    try {
      const info = fstatSync(fd);
      const kind = specialKind(info);
      if (kind !== null) {
        reply.skipped.push({ abs: file.abs, why: kind });
        return null;
      }
      if (info.size > this.maxBytes) {
        reply.skipped.push({ abs: file.abs, why: tooLarge(info.size) });
        return null;
      }
      let length = 0;
      // Bounded even if the file grows after the fstat.
      while (length < this.buffer.length) {
        const read = readSync(fd, this.buffer, length, this.buffer.length - length, length);
        if (read === 0) break;
        length += read;
      }
      if (length > this.maxBytes) {
        reply.skipped.push({ abs: file.abs, why: tooLarge(length) });
        return null;
      }
      const bytes = this.buffer.subarray(0, length);
      return looksBinary(bytes) ? null : bytes.toString("utf8");
    } catch {
      return null;
    } finally {
      closeSync(fd);
    }
  }
}

function tooLarge(size: number): string {
  return `too large: ${size} bytes, over the ${GREP_MAX_FILE_BYTES}-byte limit`;
}

async function* single(abs: string): AsyncGenerator<WalkedFile> {
  yield { abs, rel: abs.slice(abs.lastIndexOf("/") + 1) };
}
