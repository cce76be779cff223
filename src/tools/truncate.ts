/** Size limits for tool results, and the notes that say how much was cut. */

/** Characters of `modelText` the model receives from one call. */
export const MODEL_TEXT_LIMIT = 50_000;
/** Characters of `display` shown to the user for one call. */
export const DISPLAY_LIMIT = 200_000;
/** Characters kept of one long line (read_file, grep). */
export const LINE_LIMIT = 2_000;

/**
 * Where to cut `text` at or before `end` without splitting a surrogate pair (an emoji is two UTF-16
 * units). A lone half goes into JSON as `\ud83d`, which the Anthropic API refuses with 400 "The request
 * body is not valid JSON: no low surrogate in string" (anthropics/claude-code#5661, #6508, #8165).
 */
export function wholeCharEnd(text: string, end: number): number {
  const before = text.charCodeAt(end - 1);
  const after = text.charCodeAt(end);
  const splitsPair = before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff;
  return splitsPair ? end - 1 : end;
}

/** Cuts `text` to `limit` characters, appending a note with the number of characters and lines cut. */
export function truncateText(text: string, limit: number = MODEL_TEXT_LIMIT): string {
  if (text.length <= limit) return text;
  const end = wholeCharEnd(text, limit);
  const kept = text.slice(0, end);
  const rest = text.slice(end);
  const lines = countLines(rest);
  return `${kept}\n\n[output truncated: ${rest.length} more characters (${lines} ${plural(lines, "line")}) not shown]`;
}

/** Cuts one line to `limit` characters with a short marker. */
export function cutLine(line: string, limit: number = LINE_LIMIT): string {
  if (line.length <= limit) return line;
  const end = wholeCharEnd(line, limit);
  return `${line.slice(0, end)}... [line cut: ${line.length - end} more characters]`;
}

/** Lines in a text fragment (a trailing newline does not start a new line). */
export function countLines(text: string): number {
  if (text === "") return 0;
  let n = 1;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) if (i < text.length - 1) n++;
  return n;
}

export function plural(n: number, word: string, many = `${word}s`): string {
  return n === 1 ? word : many;
}

/** `a, b, c, and 4 more`: the first `max` items of a list and a count of the rest. */
export function listSome(items: readonly string[], max = 10): string {
  const more = items.length > max ? `, and ${items.length - max} more` : "";
  return items.slice(0, max).join(", ") + more;
}
