/**
 * Text and cursor moves of the chat input box, as pure functions of (text, cursor). The cursor is an index
 * into the text (UTF-16 units) and always sits on a character boundary: moves step over a surrogate pair
 * as one character. Lines are separated by "\n"; Home/End and Ctrl-A/E/U/K act on the cursor's line, as
 * in a shell (readline) and in Claude Code's input box.
 */

/** Text being edited and where the cursor is in it. */
export interface TextCursor {
  text: string;
  cursor: number;
}

/** Inserts `insert` at the cursor. */
export function insertAt({ text, cursor }: TextCursor, insert: string): TextCursor {
  return { text: text.slice(0, cursor) + insert + text.slice(cursor), cursor: cursor + insert.length };
}

/** Deletes the text between two positions (in either order); the cursor lands at the start. */
function cut({ text }: TextCursor, from: number, to: number): TextCursor {
  const [start, end] = from <= to ? [from, to] : [to, from];
  return { text: text.slice(0, start) + text.slice(end), cursor: start };
}

/** The position one character before `at` (a surrogate pair is one character). */
export function charBefore(text: string, at: number): number {
  if (at <= 0) return 0;
  const low = text.charCodeAt(at - 1);
  const high = text.charCodeAt(at - 2);
  return at >= 2 && low >= 0xdc00 && low <= 0xdfff && high >= 0xd800 && high <= 0xdbff ? at - 2 : at - 1;
}

/** The position one character after `at`. */
export function charAfter(text: string, at: number): number {
  if (at >= text.length) return text.length;
  const code = text.codePointAt(at) ?? 0;
  return at + (code > 0xffff ? 2 : 1);
}

const SPACE = /\s/;

/** The start of the word before `at` (skipping the spaces just before it), as Alt-B and Ctrl-W move. */
export function wordBefore(text: string, at: number): number {
  let i = at;
  while (i > 0 && SPACE.test(text[i - 1] ?? "")) i -= 1;
  while (i > 0 && !SPACE.test(text[i - 1] ?? "")) i -= 1;
  return i;
}

/** The end of the word after `at` (skipping the spaces just after it), as Alt-F moves. */
export function wordAfter(text: string, at: number): number {
  let i = at;
  while (i < text.length && SPACE.test(text[i] ?? "")) i += 1;
  while (i < text.length && !SPACE.test(text[i] ?? "")) i += 1;
  return i;
}

/** Where the cursor's line starts and ends. */
export function lineBounds(text: string, at: number): { start: number; end: number } {
  const start = text.lastIndexOf("\n", at - 1) + 1;
  const newline = text.indexOf("\n", at);
  return { start, end: newline === -1 ? text.length : newline };
}

/**
 * The same column on the line above (step -1) or below (step 1), clamped to that line's length; undefined
 * on the first (last) line, where Up (Down) walks the history instead.
 */
export function verticalMove(text: string, at: number, step: -1 | 1): number | undefined {
  const { start, end } = lineBounds(text, at);
  const column = at - start;
  if (step === -1) {
    if (start === 0) return undefined;
    const above = lineBounds(text, start - 1);
    return Math.min(above.start + column, above.end);
  }
  if (end === text.length) return undefined;
  const below = lineBounds(text, end + 1);
  return Math.min(below.start + column, below.end);
}

/** Backspace: the character before the cursor. */
export function deleteBefore(state: TextCursor): TextCursor {
  return cut(state, charBefore(state.text, state.cursor), state.cursor);
}

/** Delete: the character under the cursor. */
export function deleteAfter(state: TextCursor): TextCursor {
  return cut(state, state.cursor, charAfter(state.text, state.cursor));
}

/** Ctrl-W or Alt+Backspace: the word before the cursor. */
export function deleteWordBefore(state: TextCursor): TextCursor {
  return cut(state, wordBefore(state.text, state.cursor), state.cursor);
}

/** Ctrl-U: from the start of the cursor's line to the cursor. */
export function deleteToLineStart(state: TextCursor): TextCursor {
  return cut(state, lineBounds(state.text, state.cursor).start, state.cursor);
}

/** Ctrl-K: from the cursor to the end of its line. */
export function deleteToLineEnd(state: TextCursor): TextCursor {
  return cut(state, state.cursor, lineBounds(state.text, state.cursor).end);
}
