/**
 * Parser for the `*** Begin Patch` / `*** End Patch` format (the one OpenAI models are trained on).
 * Marker lines may be padded with whitespace. Pure: no file access.
 */

export const BEGIN_PATCH = "*** Begin Patch";
export const END_PATCH = "*** End Patch";
const ADD_FILE = "*** Add File: ";
const DELETE_FILE = "*** Delete File: ";
const UPDATE_FILE = "*** Update File: ";
const MOVE_TO = "*** Move to: ";
const END_OF_FILE = "*** End of File";
const CONTEXT_MARKER = "@@";

/** One `@@` chunk of an Update File hunk. */
export interface UpdateChunk {
  /** Text after `@@ `: a line to find first, narrowing where the chunk applies. */
  context?: string;
  /** Lines the chunk expects (context and removed lines, in order). */
  oldLines: string[];
  /** Lines that replace them (context and added lines, in order). */
  newLines: string[];
  /** `*** End of File`: the old lines must be the file's last lines. */
  endOfFile: boolean;
}

export type PatchHunk =
  | { kind: "add"; path: string; content: string }
  | { kind: "delete"; path: string }
  | { kind: "update"; path: string; moveTo?: string; chunks: UpdateChunk[] };

/** A patch that does not follow the format; `line` is 1-based in the patch text. */
export class PatchParseError extends Error {
  constructor(
    message: string,
    readonly line?: number,
  ) {
    super(line === undefined ? message : `patch line ${line}: ${message}`);
    this.name = "PatchParseError";
  }
}

/** Parses a whole patch into hunks; throws PatchParseError naming the line that is wrong. */
export function parsePatch(text: string): PatchHunk[] {
  const lines = unwrapHeredoc(text.trim().split(/\r?\n/));
  const first = lines[0]?.trim();
  const last = lines.at(-1)?.trim();
  if (first !== BEGIN_PATCH)
    throw new PatchParseError(`the first line of the patch must be '${BEGIN_PATCH}'`);
  if (lines.length < 2 || last !== END_PATCH) {
    throw new PatchParseError(`the last line of the patch must be '${END_PATCH}'`);
  }
  const body = lines.slice(1, -1);
  const hunks: PatchHunk[] = [];
  let i = 0;
  while (i < body.length) {
    const line = body[i] ?? "";
    if (line.trim() === "") {
      i++;
      continue;
    }
    const parsed = parseHunk(body, i);
    hunks.push(parsed.hunk);
    i = parsed.next;
  }
  if (hunks.length === 0)
    throw new PatchParseError("the patch is empty: it has no Add, Delete or Update File section");
  return hunks;
}

/** Every path a patch touches (sources and move destinations), in order, without duplicates. */
export function patchPaths(hunks: PatchHunk[]): string[] {
  const paths: string[] = [];
  for (const hunk of hunks) {
    for (const p of hunk.kind === "update" && hunk.moveTo ? [hunk.path, hunk.moveTo] : [hunk.path]) {
      if (!paths.includes(p)) paths.push(p);
    }
  }
  return paths;
}

/** Accepts a patch wrapped as a shell heredoc (`<<'EOF'` ... `EOF`), as models sometimes send it. */
function unwrapHeredoc(lines: string[]): string[] {
  const first = lines[0]?.trim() ?? "";
  const match = /^(?:apply_patch\s+)?<<\s*['"]?(\w+)['"]?$/.exec(first);
  if (match && lines.length >= 2 && lines.at(-1)?.trim() === match[1]) return lines.slice(1, -1);
  return lines;
}

/** `i` indexes `body`; patch line numbers are body index + 2 (after the Begin line). */
function parseHunk(body: string[], i: number): { hunk: PatchHunk; next: number } {
  const header = (body[i] ?? "").trim();
  const lineNo = i + 2;
  if (header.startsWith(ADD_FILE)) {
    const path = pathOf(header, ADD_FILE, lineNo);
    let content = "";
    let j = i + 1;
    for (; j < body.length && (body[j] ?? "").startsWith("+"); j++)
      content += `${(body[j] ?? "").slice(1)}\n`;
    return { hunk: { kind: "add", path, content }, next: j };
  }
  if (header.startsWith(DELETE_FILE)) {
    return { hunk: { kind: "delete", path: pathOf(header, DELETE_FILE, lineNo) }, next: i + 1 };
  }
  if (header.startsWith(UPDATE_FILE)) return parseUpdate(body, i, pathOf(header, UPDATE_FILE, lineNo));
  throw new PatchParseError(
    `'${header}' is not a valid hunk header. Valid hunk headers: '${ADD_FILE}{path}', ` +
      `'${DELETE_FILE}{path}', '${UPDATE_FILE}{path}'`,
    lineNo,
  );
}

function parseUpdate(body: string[], i: number, path: string): { hunk: PatchHunk; next: number } {
  let j = i + 1;
  let moveTo: string | undefined;
  const maybeMove = (body[j] ?? "").trim();
  if (j < body.length && maybeMove.startsWith(MOVE_TO)) {
    moveTo = pathOf(maybeMove, MOVE_TO, j + 2);
    j++;
  }
  const chunks: UpdateChunk[] = [];
  while (j < body.length) {
    const line = body[j] ?? "";
    if (line.trim() === "") {
      j++;
      continue;
    }
    if (line.trimStart().startsWith("***") && line.trimEnd() !== END_OF_FILE) break;
    const parsed = parseChunk(body, j, chunks.length === 0);
    chunks.push(parsed.chunk);
    j = parsed.next;
  }
  if (chunks.length === 0) throw new PatchParseError(`Update File hunk for '${path}' is empty`, i + 2);
  const hunk: PatchHunk =
    moveTo === undefined ? { kind: "update", path, chunks } : { kind: "update", path, moveTo, chunks };
  return { hunk, next: j };
}

function parseChunk(body: string[], i: number, first: boolean): { chunk: UpdateChunk; next: number } {
  const head = body[i] ?? "";
  const chunk: UpdateChunk = { oldLines: [], newLines: [], endOfFile: false };
  let j = i;
  if (head.trim() === CONTEXT_MARKER) {
    j++;
  } else if (head.trimStart().startsWith(`${CONTEXT_MARKER} `)) {
    chunk.context = head.trimStart().slice(CONTEXT_MARKER.length + 1);
    j++;
  } else if (!first) {
    throw new PatchParseError(`expected a '@@' line to start the next change, got '${head}'`, i + 2);
  }
  let lines = 0;
  for (; j < body.length; j++) {
    const line = body[j] ?? "";
    if (line.trimEnd() === END_OF_FILE) {
      if (lines === 0) break;
      chunk.endOfFile = true;
      j++;
      break;
    }
    if (lines > 0 && isPaddedMarker(line)) break;
    const tag = line[0];
    if (tag === undefined) {
      chunk.oldLines.push("");
      chunk.newLines.push("");
    } else if (tag === " ") {
      chunk.oldLines.push(line.slice(1));
      chunk.newLines.push(line.slice(1));
    } else if (tag === "+") {
      chunk.newLines.push(line.slice(1));
    } else if (tag === "-") {
      chunk.oldLines.push(line.slice(1));
    } else {
      if (lines === 0) {
        throw new PatchParseError(
          `unexpected line '${line}' in an update: every line must start with ' ' (context), '+' (added) or '-' (removed)`,
          j + 2,
        );
      }
      break;
    }
    lines++;
  }
  if (lines === 0) throw new PatchParseError("a change ('@@' section) has no lines", i + 2);
  return { chunk, next: j };
}

/** A hunk header or End Patch indented by whitespace (otherwise it would read as a context line). */
function isPaddedMarker(line: string): boolean {
  if (!/^\s/.test(line)) return false;
  const t = line.trim();
  return t === END_PATCH || [ADD_FILE, DELETE_FILE, UPDATE_FILE].some((m) => t.startsWith(m));
}

function pathOf(header: string, marker: string, lineNo: number): string {
  const path = header.slice(marker.length).trim();
  if (path === "") throw new PatchParseError(`'${header}' names no file`, lineNo);
  return path;
}
