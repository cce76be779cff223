/**
 * Applies the chunks of one Update File hunk to a file's text: finds each chunk's old lines (exactly, then
 * ignoring trailing whitespace, then surrounding whitespace, then typographic punctuation) after the
 * previous chunk, and replaces them. Pure: text in, text out.
 */

import type { UpdateChunk } from "./apply-patch-parser.ts";

/** A chunk whose context or old lines were not found; the message names the file and the lines. */
export class PatchMatchError extends Error {
  override name = "PatchMatchError";
}

type Normalize = (line: string) => string;
const PASSES: Normalize[] = [
  (s) => s,
  (s) => s.trimEnd(),
  (s) => s.trim(),
  (s) => normalizePunctuation(s.trim()),
];

/** The new text of `relPath` after its chunks; always ends with a newline (CRLF files keep CRLF). */
export function applyChunks(original: string, chunks: UpdateChunk[], relPath: string): string {
  const eol = original.includes("\r\n") ? "\r\n" : "\n";
  const lines = original.split(/\r?\n/);
  if (lines.at(-1) === "") lines.pop();
  const replacements: { start: number; length: number; lines: string[] }[] = [];
  let cursor = 0;
  for (const chunk of chunks) {
    if (chunk.context !== undefined) {
      const at = seek(lines, [chunk.context], cursor, false);
      if (at === null) throw new PatchMatchError(`failed to find context '${chunk.context}' in ${relPath}`);
      cursor = at + 1;
    }
    if (chunk.oldLines.length === 0) {
      // A pure addition goes at the end of the file.
      replacements.push({ start: lines.length, length: 0, lines: chunk.newLines });
      continue;
    }
    let oldLines = chunk.oldLines;
    let newLines = chunk.newLines;
    let at = seek(lines, oldLines, cursor, chunk.endOfFile);
    if (at === null && oldLines.at(-1) === "") {
      // A blank last line is often an artifact of how the patch was written; try without it.
      oldLines = oldLines.slice(0, -1);
      if (newLines.at(-1) === "") newLines = newLines.slice(0, -1);
      at = seek(lines, oldLines, cursor, chunk.endOfFile);
    }
    if (at === null) {
      const where = chunk.context === undefined ? "" : ` after '${chunk.context}'`;
      throw new PatchMatchError(
        `failed to find the expected lines in ${relPath}${where}:\n${chunk.oldLines.join("\n")}\n` +
          "(context and '-' lines must match the file; read it again)",
      );
    }
    replacements.push({ start: at, length: oldLines.length, lines: newLines });
    cursor = at + oldLines.length;
  }
  replacements.sort((a, b) => a.start - b.start);
  for (const r of replacements.reverse()) lines.splice(r.start, r.length, ...r.lines);
  if (lines.at(-1) !== "") lines.push("");
  return lines.join(eol);
}

/** Index where `pattern` occurs in `lines` at or after `start` (at the very end when `atEnd`), or null. */
export function seek(lines: string[], pattern: string[], start: number, atEnd: boolean): number | null {
  if (pattern.length === 0) return start;
  if (pattern.length > lines.length) return null;
  const last = lines.length - pattern.length;
  const from = atEnd ? last : start;
  for (const normalize of PASSES) {
    for (let i = from; i <= last; i++) {
      if (pattern.every((p, k) => normalize(lines[i + k] ?? "") === normalize(p))) return i;
    }
  }
  return null;
}

/** Maps typographic dashes, quotes and spaces to their ASCII forms. */
function normalizePunctuation(s: string): string {
  return s
    .replace(/[\u2010-\u2015\u2212]/g, "-")
    .replace(/[\u2018\u2019\u201A\u201B]/g, "'")
    .replace(/[\u201C\u201D\u201E\u201F]/g, '"')
    .replace(/[\u00A0\u2002-\u200A\u202F\u205F\u3000]/g, " ");
}
