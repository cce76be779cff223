/**
 * The root session records (session_start, session_end at depth 0) of a transcript, read with bounded
 * memory however large the file or its lines: the file is scanned as bytes, every other line is
 * skipped without being decoded, and of a wanted line only its first and last 64 KiB are kept. A line
 * longer than that (a 50 MB answer or goal) is rebuilt from its two ends with the long string in the
 * middle cut short, which is all a summary shows of it (issue 22: a 210 MB transcript made
 * `sessions list` take 6 s and 970 MiB).
 */
import { readSync } from "node:fs";

const CHUNK_BYTES = 256 * 1024;
/** What is kept of each end of a wanted line. */
export const LINE_END_BYTES = 64 * 1024;

const WANTED = [Buffer.from('{"kind":"session_start",'), Buffer.from('{"kind":"session_end",')];
const PREFIX_BYTES = Math.max(...WANTED.map((w) => w.length));
/** Where the depth sits in a record (`{"kind","agent","name","depth",…}`, kernel/run-events/events.ts makeEvent). */
const ROOT_DEPTH = Buffer.from('"depth":0,');
const NEWLINE = 0x0a;

function wanted(head: Buffer): boolean {
  if (!WANTED.some((w) => head.subarray(0, w.length).equals(w))) return false;
  // Agent and name are short ids and names: the depth is within the first few hundred bytes.
  return head.subarray(0, 1024).includes(ROOT_DEPTH);
}

/** Yields the text of each root session record of the file, in order (long ones rebuilt, see above). */
export function* rootSessionRecords(fd: number, size: number): Generator<string> {
  const chunk = Buffer.alloc(CHUNK_BYTES);
  let head: Buffer[] = [];
  let headLength = 0;
  let tail: Buffer | undefined;
  let lineLength = 0;
  // undefined: not yet known (fewer than PREFIX_BYTES seen)
  let keep: boolean | undefined;

  const take = (piece: Buffer): void => {
    lineLength += piece.length;
    if (keep === false) return;
    if (headLength < LINE_END_BYTES) {
      const part = piece.subarray(0, LINE_END_BYTES - headLength);
      head.push(Buffer.from(part));
      headLength += part.length;
    }
    if (keep === undefined && headLength >= PREFIX_BYTES) keep = wanted(Buffer.concat(head));
    if (keep) {
      const joined = tail ? Buffer.concat([tail, piece]) : Buffer.from(piece);
      tail = Buffer.from(joined.subarray(Math.max(0, joined.length - LINE_END_BYTES)));
    }
  };
  const finish = (): string | undefined => {
    const whole = keep === true || (keep === undefined && headLength > 0 && wanted(Buffer.concat(head)));
    const text = whole ? lineText(Buffer.concat(head), lineLength, tail) : undefined;
    head = [];
    headLength = 0;
    tail = undefined;
    lineLength = 0;
    keep = undefined;
    return text;
  };

  for (let position = 0; position < size; ) {
    const read = readSync(fd, chunk, 0, Math.min(CHUNK_BYTES, size - position), position);
    if (read <= 0) break;
    position += read;
    const bytes = chunk.subarray(0, read);
    for (let start = 0; start < bytes.length; ) {
      const nl = bytes.indexOf(NEWLINE, start);
      take(bytes.subarray(start, nl < 0 ? bytes.length : nl));
      if (nl < 0) break;
      const text = finish();
      if (text !== undefined) yield text;
      start = nl + 1;
    }
  }
  const last = finish();
  if (last !== undefined) yield last;
}

/** The line's text: whole when short, else its head and tail joined around the long string. */
function lineText(head: Buffer, length: number, tail: Buffer | undefined): string | undefined {
  if (length <= LINE_END_BYTES || tail === undefined) return head.toString("utf8");
  const start = openStringCut(head.toString("utf8"));
  const rest = afterStringEnd(tail.toString("latin1"));
  if (start === undefined || rest === undefined) return undefined;
  // The tail is cut on a byte boundary: decode it from the string's end, which is ASCII `"`.
  const restText = Buffer.from(rest, "latin1").toString("utf8");
  return `${start}…"${restText}`;
}

/** The head up to a safe cut inside the string it ends in; undefined when it does not end in a string. */
function openStringCut(head: string): string | undefined {
  let inString = false;
  for (let i = 0; i < head.length; i++) {
    const c = head[i];
    if (inString && c === "\\") i++;
    else if (c === '"') inString = !inString;
  }
  if (!inString) return undefined;
  // Do not end on half an escape sequence.
  return head.replace(/\\(u[0-9a-fA-F]{0,3})?$/, "");
}

/** What follows the first unescaped `"` of the tail (the long string's end), including that quote's
 * successors; undefined when none can be told apart. */
function afterStringEnd(tail: string): string | undefined {
  for (let i = 0; i < tail.length; i++) {
    if (tail[i] !== '"') continue;
    let backslashes = 0;
    for (let j = i - 1; j >= 0 && tail[j] === "\\"; j--) backslashes++;
    // A run of backslashes that reaches the tail's start cannot be counted: not a safe end.
    if (i - backslashes === 0) continue;
    if (backslashes % 2 === 0) return tail.slice(i + 1);
  }
  return undefined;
}
