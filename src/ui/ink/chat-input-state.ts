/**
 * The chat input box's editing, as a pure function of the key pressed (Ink's useInput calls it; tests call
 * it directly). Deliberately small: typing appends, Backspace deletes, Enter sends; a newline is `\` then
 * Enter, Ctrl-J or Alt+Enter (terminals do not tell Shift+Enter from Enter); Up/Down walk this session's
 * earlier inputs; Esc leaves the draft alone (it interrupts a running turn, not the text being written);
 * Ctrl-C clears a non-empty box, and on an empty one asks for a second Ctrl-C before quitting ("Press
 * Ctrl-C again to exit", as Claude Code does; any other key disarms it); Ctrl-D on an empty box quits.
 *
 * The keys follow the peers: `\` + Enter is Claude Code's "quick escape" for a line break
 * (https://code.claude.com/docs/en/terminal-config, "Line breaks"); Ctrl+J and Alt+Enter are Gemini CLI's
 * `input.newline`, Ctrl+C clears the input or quits when it is empty (`edit.clear`, `basic.quit`) and
 * Ctrl+D exits on an empty input (`basic.exit`) (https://geminicli.com/docs/reference/keyboard-shortcuts/).
 * Ink 8 reports "\r" as return, "\x1b\r" as return with meta (Alt+Enter) and "\n" (Ctrl-J) as plain
 * input (node_modules/ink/build/parse-keypress.js).
 */

/** The keys the box reads (a subset of Ink's `Key`). */
export interface InputKey {
  return?: boolean;
  escape?: boolean;
  backspace?: boolean;
  delete?: boolean;
  upArrow?: boolean;
  downArrow?: boolean;
  ctrl?: boolean;
  meta?: boolean;
  tab?: boolean;
}

export interface InputState {
  text: string;
  /** Earlier inputs of this session, oldest first. */
  history: readonly string[];
  /** Which history entry is shown; `history.length` means the text being written. */
  index: number;
  /** The text being written, kept while Up/Down show history entries. */
  draft: string;
  /** Ctrl-C was pressed on an empty box: the next Ctrl-C quits (the box shows "Press Ctrl-C again to exit"). */
  quitArmed?: boolean;
}

/** What a key did besides editing: send the text, or leave the chat. */
export type InputOutcome = { kind: "submit"; text: string } | { kind: "quit" } | undefined;

export function emptyInput(history: readonly string[] = []): InputState {
  return { text: "", history, index: history.length, draft: "" };
}

/** Applies one key (or one chunk of typed/pasted text) to the box. */
export function applyInputKey(
  state: InputState,
  input: string,
  key: InputKey,
): { state: InputState; outcome: InputOutcome } {
  if (key.ctrl && input === "c") {
    if (state.text !== "") return editText(state, "");
    if (state.quitArmed === true) return { state, outcome: { kind: "quit" } };
    return { state: { ...state, quitArmed: true }, outcome: undefined };
  }
  return applyOtherKey(state.quitArmed === true ? { ...state, quitArmed: false } : state, input, key);
}

/** Sets the text being written (leaving the history position). */
function editText(state: InputState, text: string): { state: InputState; outcome: InputOutcome } {
  return { state: { ...state, text, index: state.history.length, draft: text }, outcome: undefined };
}

/** Every key but Ctrl-C. */
function applyOtherKey(
  state: InputState,
  input: string,
  key: InputKey,
): { state: InputState; outcome: InputOutcome } {
  const edit = (text: string) => editText(state, text);
  if (key.ctrl && input === "d") return { state, outcome: state.text === "" ? { kind: "quit" } : undefined };
  if (key.escape) return { state, outcome: undefined };
  if ((key.ctrl && input === "j") || input === "\n") return edit(`${state.text}\n`);
  if (key.return) {
    if (key.meta) return edit(`${state.text}\n`);
    if (state.text.endsWith("\\")) return edit(`${state.text.slice(0, -1)}\n`);
    return submit(state, state.text);
  }
  if (key.backspace || key.delete) return edit(state.text.slice(0, -1));
  if (key.upArrow || key.downArrow)
    return { state: walkHistory(state, key.upArrow ? -1 : 1), outcome: undefined };
  // Alt+key (meta) with printable text is typed as the text: a terminal sends Esc then a quickly typed
  // key as one sequence ("\x1b a"), which Ink reports as meta, and Esc must not swallow what follows.
  if (key.ctrl || key.tab || input === "" || (key.meta && !/^[^\p{Cc}]+$/u.test(input)))
    return { state, outcome: undefined };
  // Typed text, possibly a whole chunk ("hello\r" when typed quickly, or a paste): line ends inside it
  // are newlines; one at its very end is Enter.
  const enter = /\r$/.test(input) && !/\r\n$/.test(input);
  const text = state.text + input.replace(/\r$/, "").replace(/\r\n?/g, "\n");
  return enter ? submit(state, text) : edit(text);
}

function submit(state: InputState, text: string): { state: InputState; outcome: InputOutcome } {
  if (text.trim() === "") return { state: { ...state, text }, outcome: undefined };
  const last = state.history[state.history.length - 1];
  const history = last === text ? state.history : [...state.history, text];
  return { state: emptyInput(history), outcome: { kind: "submit", text } };
}

function walkHistory(state: InputState, step: -1 | 1): InputState {
  const index = Math.min(state.history.length, Math.max(0, state.index + step));
  if (index === state.index) return state;
  const text = index === state.history.length ? state.draft : (state.history[index] ?? "");
  return { ...state, index, text };
}
