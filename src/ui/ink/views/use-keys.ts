import { type Key, useInput } from "ink";

/**
 * Ink's useInput, with one key press per control key. Ink splits Ctrl-C and Backspace bytes out of a read
 * of the terminal (ink/build/input-parser.js), but hands other control keys read together to its handlers
 * as one input: two Ctrl-W pressed quickly, or arriving in one read under load, come as "\u0017\u0017" with
 * `ctrl` false, so neither press is seen as the key it is. A read made only of control keys (Ctrl-A ..
 * Ctrl-Z, but not Tab, Enter or Backspace, which Ink names itself) is split here into one call per key,
 * each as Ink reports a single one: the letter, with `ctrl` set.
 */
export function useKeys(handler: (input: string, key: Key) => void, options?: { isActive?: boolean }): void {
  useInput((input, key) => {
    const keys = controlKeys(input);
    if (keys === undefined) return handler(input, key);
    for (const letter of keys) handler(letter, { ...key, ctrl: true });
  }, options);
}

/** Control codes Ink gives names of their own: Backspace (8), Tab (9), line feed (10), Enter (13). */
const NAMED = new Set([8, 9, 10, 13]);

/** The letters of an input made of two or more Ctrl-letter keys ("\u0003\u0003" -> ["c", "c"]), else undefined. */
export function controlKeys(input: string): string[] | undefined {
  if (input.length < 2) return undefined;
  const letters: string[] = [];
  for (let i = 0; i < input.length; i++) {
    const code = input.charCodeAt(i);
    if (code < 1 || code > 26 || NAMED.has(code)) return undefined;
    letters.push(String.fromCharCode(code + 96));
  }
  return letters;
}
