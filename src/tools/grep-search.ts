/**
 * The search behind grep, run inside a worker (grep-runner.ts) so a pattern that backtracks
 * catastrophically can be stopped: a regular expression over the text files under a path, with the
 * files it did not search (too large, binary is silent, FIFOs and devices) reported, never opened.
 */
import { looksBinary, readRegularFile } from "./files.ts";
import { cutLine } from "./truncate.ts";
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

export interface GrepReply {
  hits: GrepHit[];
  /** More matches existed than GREP_MAX_MATCHES. */
  capped: boolean;
  /** Files not searched and why ("too large: 6291456 bytes", "a FIFO"). */
  skipped: { abs: string; why: string }[];
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

export async function searchFiles(request: GrepRequest): Promise<GrepReply> {
  const regex = compilePattern(request.pattern);
  const filter = request.glob === undefined ? null : globFilter(request.glob);
  const files = request.isDirectory ? walkFiles(request.base, { skip: request.skip }) : single(request.base);
  const reply: GrepReply = { hits: [], capped: false, skipped: [] };
  for await (const file of files) {
    if (filter && !filter(file.rel)) continue;
    if (file.special !== undefined) {
      reply.skipped.push({ abs: file.abs, why: file.special });
      continue;
    }
    const text = await readSearchable(file.abs, reply);
    if (text === null) continue;
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

async function* single(abs: string): AsyncGenerator<WalkedFile> {
  yield { abs, rel: abs.slice(abs.lastIndexOf("/") + 1) };
}

/** The text of a file worth searching; null for binary files (silently) and for skipped ones (noted). */
async function readSearchable(abs: string, reply: GrepReply): Promise<string | null> {
  try {
    const read = await readRegularFile(abs, GREP_MAX_FILE_BYTES);
    if (read.ok) return looksBinary(read.bytes) ? null : read.bytes.toString("utf8");
    const why =
      read.why === "special"
        ? read.kind
        : `too large: ${read.size} bytes, over the ${GREP_MAX_FILE_BYTES}-byte limit`;
    reply.skipped.push({ abs, why });
    return null;
  } catch {
    return null; // vanished or unreadable since the walk
  }
}
