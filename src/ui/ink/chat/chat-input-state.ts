/**
 * The chat input box's editing, as a pure function of the key pressed (Ink's useInput calls it; tests call
 * it directly). Typing inserts at the cursor, Enter sends the whole text; a newline is `\` then
 * Enter, Ctrl-J or Alt+Enter (terminals do not tell Shift+Enter from Enter); Up/Down walk this session's
 * earlier inputs; Esc leaves the draft alone (it interrupts a running turn, not the text being written),
 * and twice on an empty box opens the rewind list (Claude Code: "Press Esc twice (Esc + Esc) or use the
 * /rewind command to open the rewind menu", https://code.claude.com/docs/en/checkpointing; any other key
 * in between disarms it);
 * Ctrl-C clears a non-empty box, and on an empty one asks for a second Ctrl-C before quitting ("Press
 * Ctrl-C again to exit", as Claude Code does; any other key disarms it); Ctrl-D on an empty box quits.
 *
 * The keys follow the peers: `\` + Enter is Claude Code's "quick escape" for a line break
 * (https://code.claude.com/docs/en/terminal-config, "Line breaks"); Ctrl+J and Alt+Enter are Gemini CLI's
 * `input.newline`, Ctrl+C clears the input or quits when it is empty (`edit.clear`, `basic.quit`) and
 * Ctrl+D exits on an empty input (`basic.exit`) (https://geminicli.com/docs/reference/keyboard-shortcuts/).
 * The cursor moves and deletes as in a shell and in Claude Code's input box
 * (https://code.claude.com/docs/en/interactive-mode, "Keyboard shortcuts": Alt+B/F move by word, Ctrl+K
 * and Ctrl+U delete to the line's end and start): Left/Right, Home/End and Ctrl-A/E, Ctrl+Left/Right and
 * Alt-B/F by word, Backspace and Delete, Ctrl-W and Alt+Backspace the word before, Ctrl-U and Ctrl-K; Up
 * and Down move between the lines of a multi-line text and walk the history from its first and last line
 * (chat-input-edit.ts holds the moves).
 * Ink 8 reports "\r" as return, "\x1b\r" as return with meta (Alt+Enter) and "\n" (Ctrl-J) as plain
 * input (node_modules/ink/build/parse-keypress.js).
 */

import {
  charAfter,
  charBefore,
  deleteAfter,
  deleteBefore,
  deleteToLineEnd,
  deleteToLineStart,
  deleteWordBefore,
  insertAt,
  lineBounds,
  type TextCursor,
  verticalMove,
  wordAfter,
  wordBefore,
} from "./chat-input-edit.ts";

/** The keys the box reads (a subset of Ink's `Key`). */
export interface InputKey {
  return?: boolean;
  escape?: boolean;
  backspace?: boolean;
  delete?: boolean;
  upArrow?: boolean;
  downArrow?: boolean;
  leftArrow?: boolean;
  rightArrow?: boolean;
  home?: boolean;
  end?: boolean;
  ctrl?: boolean;
  meta?: boolean;
  tab?: boolean;
}

export interface InputState {
  text: string;
  /** Where the cursor is in `text` (0 … text.length). */
  cursor: number;
  /** Earlier inputs of this session, oldest first. */
  history: readonly string[];
  /** Which history entry is shown; `history.length` means the text being written. */
  index: number;
  /** The text being written, kept while Up/Down show history entries. */
  draft: string;
  /** Ctrl-C was pressed on an empty box: the next Ctrl-C quits (the box shows "Press Ctrl-C again to exit"). */
  quitArmed?: boolean;
  /** Esc was pressed on an empty box: the next Esc opens the rewind list ("Press Esc again to rewind"). */
  rewindArmed?: boolean;
}

/** What a key did besides editing: send the text, or leave the chat. */
export type InputOutcome =
  | { kind: "submit"; text: string }
  | { kind: "quit" }
  | { kind: "rewind" }
  | undefined;

type Applied = { state: InputState; outcome: InputOutcome };

export function emptyInput(history: readonly string[] = []): InputState {
  return { text: "", cursor: 0, history, index: history.length, draft: "" };
}

/** Applies one key (or one chunk of typed/pasted text) to the box. */
export function applyInputKey(armed: InputState, input: string, key: InputKey): Applied {
  const { rewindArmed, ...state } = armed;
  if (key.escape && state.text === "") {
    if (rewindArmed === true) return { state, outcome: { kind: "rewind" } };
    return { state: { ...state, quitArmed: false, rewindArmed: true }, outcome: undefined };
  }
  if (key.ctrl && input === "c") {
    if (state.text !== "") return edit(state, { text: "", cursor: 0 });
    if (state.quitArmed === true) return { state, outcome: { kind: "quit" } };
    return { state: { ...state, quitArmed: true }, outcome: undefined };
  }
  return applyOtherKey(state.quitArmed === true ? { ...state, quitArmed: false } : state, input, key);
}

/** Sets the text being written and the cursor (leaving the history position). */
function edit(state: InputState, next: TextCursor): Applied {
  return {
    state: { ...state, text: next.text, cursor: next.cursor, index: state.history.length, draft: next.text },
    outcome: undefined,
  };
}

/** Moves the cursor, the text unchanged. */
function moveTo(state: InputState, cursor: number): Applied {
  return { state: { ...state, cursor }, outcome: undefined };
}

/** Every key but Ctrl-C. */
function applyOtherKey(state: InputState, input: string, key: InputKey): Applied {
  if (key.ctrl && input === "d") return { state, outcome: state.text === "" ? { kind: "quit" } : undefined };
  if (key.escape) return { state, outcome: undefined };
  if ((key.ctrl && input === "j") || input === "\n") return edit(state, insertAt(state, "\n"));
  if (key.return) return applyEnter(state, key);
  const moved = applyMove(state, input, key);
  if (moved !== undefined) return moved;
  const deleted = applyDelete(state, input, key);
  if (deleted !== undefined) return edit(state, deleted);
  if (key.upArrow || key.downArrow) {
    const step = key.upArrow ? -1 : 1;
    const line = verticalMove(state.text, state.cursor, step);
    if (line !== undefined) return moveTo(state, line);
    return { state: walkHistory(state, step), outcome: undefined };
  }
  // Alt+key (meta) with printable text is typed as the text: a terminal sends Esc then a quickly typed
  // key as one sequence ("\x1b a"), which Ink reports as meta, and Esc must not swallow what follows.
  if (key.ctrl || key.tab || input === "" || (key.meta && !/^[^\p{Cc}]+$/u.test(input)))
    return { state, outcome: undefined };
  // Typed text, possibly a whole chunk ("hello\r" when typed quickly, or a paste): line ends inside it
  // are newlines; one at its very end is Enter.
  const enter = /\r$/.test(input) && !/\r\n$/.test(input);
  const typed = insertAt(state, input.replace(/\r$/, "").replace(/\r\n?/g, "\n"));
  return enter ? submit(state, typed.text) : edit(state, typed);
}

/** Enter sends the whole text; Alt+Enter, or Enter right after a `\`, is a newline at the cursor. */
function applyEnter(state: InputState, key: InputKey): Applied {
  if (key.meta) return edit(state, insertAt(state, "\n"));
  if (state.text[state.cursor - 1] === "\\") {
    const text = `${state.text.slice(0, state.cursor - 1)}\n${state.text.slice(state.cursor)}`;
    return edit(state, { text, cursor: state.cursor });
  }
  return submit(state, state.text);
}

/** Cursor moves: by character, word, or to the line's start or end; undefined for any other key. */
function applyMove(state: InputState, input: string, key: InputKey): Applied | undefined {
  const { text, cursor } = state;
  const word = key.ctrl || key.meta;
  if (key.leftArrow) return moveTo(state, word ? wordBefore(text, cursor) : charBefore(text, cursor));
  if (key.rightArrow) return moveTo(state, word ? wordAfter(text, cursor) : charAfter(text, cursor));
  if (key.home || (key.ctrl && input === "a")) return moveTo(state, lineBounds(text, cursor).start);
  if (key.end || (key.ctrl && input === "e")) return moveTo(state, lineBounds(text, cursor).end);
  if (key.meta && input === "b") return moveTo(state, wordBefore(text, cursor));
  if (key.meta && input === "f") return moveTo(state, wordAfter(text, cursor));
  return undefined;
}

/** Deletions; undefined for any other key. */
function applyDelete(state: InputState, input: string, key: InputKey): TextCursor | undefined {
  if (key.backspace) return key.meta ? deleteWordBefore(state) : deleteBefore(state);
  if (key.delete) return deleteAfter(state);
  if (key.ctrl && input === "w") return deleteWordBefore(state);
  if (key.ctrl && input === "u") return deleteToLineStart(state);
  if (key.ctrl && input === "k") return deleteToLineEnd(state);
  return undefined;
}

function submit(state: InputState, text: string): Applied {
  if (text.trim() === "") return { state: { ...state, text, cursor: text.length }, outcome: undefined };
  const last = state.history[state.history.length - 1];
  const history = last === text ? state.history : [...state.history, text];
  return { state: emptyInput(history), outcome: { kind: "submit", text } };
}

/** Up/Down on the first/last line: an earlier or later input, the cursor at its end. */
function walkHistory(state: InputState, step: -1 | 1): InputState {
  const index = Math.min(state.history.length, Math.max(0, state.index + step));
  if (index === state.index) return state;
  const text = index === state.history.length ? state.draft : (state.history[index] ?? "");
  return { ...state, index, text, cursor: text.length };
}
