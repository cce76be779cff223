import { stripEscapeSequences } from "./terminal-text.ts";

/**
 * The last lines of a growing output, in bounded memory: a command's live tail and its closing summary.
 * Keeps at most {@link TAIL_KEEP_CHARS} characters of text and counts every newline seen.
 */

/** Lines shown of a running or finished command. */
export const TAIL_LINES = 5;
/** Characters of each shown line. */
export const TAIL_LINE_CHARS = 200;
const TAIL_KEEP_CHARS = 4096;

export class OutputTail {
  private text = "";
  private newlines = 0;

  push(chunk: string): void {
    for (let i = chunk.indexOf("\n"); i >= 0; i = chunk.indexOf("\n", i + 1)) this.newlines++;
    this.text = (this.text + chunk).slice(-TAIL_KEEP_CHARS);
  }

  /** Lines seen so far (a last line without its newline counts). */
  get lineCount(): number {
    return this.newlines + (this.text !== "" && !this.text.endsWith("\n") ? 1 : 0);
  }

  /** The last non-empty lines, escape sequences removed, each cut to TAIL_LINE_CHARS. */
  lines(count = TAIL_LINES): string[] {
    return lastLines(this.text, count);
  }
}

/** The last `count` non-empty lines of a text, escape sequences removed, each cut to TAIL_LINE_CHARS. */
export function lastLines(text: string, count = TAIL_LINES): string[] {
  return stripEscapeSequences(text)
    .split("\n")
    .map((line) => line.replace(/\r$/, "").trimEnd())
    .filter((line) => line.trim() !== "")
    .slice(-count)
    .map((line) => (line.length > TAIL_LINE_CHARS ? `${line.slice(0, TAIL_LINE_CHARS - 1)}…` : line));
}
