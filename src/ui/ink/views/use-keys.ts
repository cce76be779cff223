import { type Key, useInput } from "ink";

/**
 * Ink's useInput, with one key press per control key. Ink splits Ctrl-C and Backspace bytes out of a read
 * of the terminal (ink/build/input-parser.js), but hands other control keys read together to its handlers
 * as one input: two Ctrl-W pressed quickly, or arriving in one read under load, come as "\u0017\u0017" with
 * `ctrl` false, so neither press is seen as the key it is; Ctrl-U then typed text ("\u0015/rewind") would
 * put the control byte into the text. A read holding control keys (Ctrl-A .. Ctrl-Z, but not Tab, Enter
 * or Backspace, which Ink names itself) is split here: each control key is one call, as Ink reports a
 * single one (the letter, with `ctrl` set), and the text between them is one call each, as typed.
 */
export function useKeys(handler: (input: string, key: Key) => void, options?: { isActive?: boolean }): void {
  useInput((input, key) => {
    const parts = splitControlKeys(input);
    if (parts === undefined) return handler(input, key);
    for (const part of parts) handler(part.input, { ...key, ctrl: part.ctrl });
  }, options);
}

/** Control codes Ink gives names of their own: Backspace (8), Tab (9), line feed (10), Enter (13). */
const NAMED = new Set([8, 9, 10, 13]);

function isControlKey(code: number): boolean {
  return code >= 1 && code <= 26 && !NAMED.has(code);
}

/** The letters of an input made of two or more Ctrl-letter keys ("\u0003\u0003" -> ["c", "c"]), else undefined. */
export function controlKeys(input: string): string[] | undefined {
  const parts = splitControlKeys(input);
  if (parts === undefined || parts.some((part) => !part.ctrl)) return undefined;
  return parts.map((part) => part.input);
}

/**
 * An input of more than one key that holds a Ctrl-letter key, as the presses it stands for: each control
 * key as its letter with `ctrl`, each run of other text as typed ("\u0015/rewind" -> u with ctrl, then
 * "/rewind"). Undefined for a single key or text without control keys (Ink's own report stands).
 */
export function splitControlKeys(input: string): { input: string; ctrl: boolean }[] | undefined {
  if (input.length < 2) return undefined;
  const parts: { input: string; ctrl: boolean }[] = [];
  let text = "";
  let controls = 0;
  for (let i = 0; i < input.length; i++) {
    const code = input.charCodeAt(i);
    if (!isControlKey(code)) {
      text += input[i];
      continue;
    }
    if (text !== "") parts.push({ input: text, ctrl: false });
    text = "";
    parts.push({ input: String.fromCharCode(code + 96), ctrl: true });
    controls += 1;
  }
  if (text !== "") parts.push({ input: text, ctrl: false });
  return controls === 0 ? undefined : parts;
}
