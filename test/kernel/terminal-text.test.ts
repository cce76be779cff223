import { describe, expect, test } from "bun:test";
import {
  stringifyForTerminal,
  stripEscapeSequences,
  TerminalSafeStream,
  terminalSafe,
} from "../../src/kernel/terminal-text.ts";

/** Hostile inputs and what a terminal may show of them (xterm ctlseqs; ECMA-48). */
const CASES: [string, string, string][] = [
  ["OSC 52 clipboard write (BEL)", "a\u001b]52;c;Y3VybCBldmls\u0007b", "ab"],
  ["OSC 52 clipboard write (ST)", "a\u001b]52;c;Y3VybCBldmls\u001b\\b", "ab"],
  ["OSC 0 window title", "\u001b]0;title\u0007ok", "ok"],
  ["OSC 2 window title", "\u001b]2;title\u001b\\ok", "ok"],
  ["OSC 8 hyperlink", "\u001b]8;;https://evil.test\u001b\\link\u001b]8;;\u001b\\", "link"],
  ["clear screen and home", "x\u001b[2J\u001b[Hy", "xy"],
  ["cursor up and erase line", "shown\u001b[1A\u001b[2Khidden", "shownhidden"],
  ["colours from the model", "\u001b[31mred\u001b[0m", "red"],
  ["DCS", "\u001bPq#0;2;0;0;0\u001b\\dcs", "dcs"],
  ["8-bit CSI", "a\u009b2Jb", "ab"],
  ["8-bit OSC", "a\u009d0;t\u009cb", "ab"],
  ["unterminated OSC", "a\u001b]0;title", "a"],
  ["save/restore cursor", "\u001b7x\u001b8", "x"],
  ["bell and backspace", "be\u0007l\bl", "bell"],
  ["carriage return overwrite", "rm -rf /\rls", "rm -rf /ls"],
  ["bidi override", "a\u202eevil\u202cb", "aevilb"],
  ["NUL and DEL", "a\u0000b\u007fc", "abc"],
];

describe("terminalSafe", () => {
  for (const [name, input, shown] of CASES) {
    test(`removes ${name}`, () => {
      expect(terminalSafe(input)).toBe(shown);
    });
  }

  test("keeps tabs, newlines (CR LF as LF) and any printable Unicode", () => {
    expect(terminalSafe("a\tb\r\nc\nünï 日本 🙂")).toBe("a\tb\nc\nünï 日本 🙂");
  });

  test("stripEscapeSequences removes sequences but keeps other characters (exec output for the model)", () => {
    expect(stripEscapeSequences("\u001b[32mok\u001b[0m\r\n")).toBe("ok\r\n");
  });
});

describe("TerminalSafeStream", () => {
  const whole = CASES.map(([, input]) => input).join(" | ");

  test("a sequence split at any point shows nothing of itself", () => {
    const expected = terminalSafe(whole);
    for (let cut = 0; cut <= whole.length; cut++) {
      const stream = new TerminalSafeStream();
      const shown = stream.push(whole.slice(0, cut)) + stream.push(whole.slice(cut)) + stream.end();
      expect(shown).toBe(expected);
    }
  });

  test("one character at a time gives the same text as the whole", () => {
    const stream = new TerminalSafeStream();
    let shown = "";
    for (const ch of whole) shown += stream.push(ch);
    expect(shown + stream.end()).toBe(terminalSafe(whole));
  });

  test("an unterminated sequence is not held forever", () => {
    const stream = new TerminalSafeStream();
    const first = stream.push(`a\u001b]0;${"x".repeat(2_000)}`);
    expect(first).toBe("a");
    expect(stream.push("b")).toBe("b");
  });
});

describe("stringifyForTerminal", () => {
  test("escapes what JSON.stringify leaves raw, and parses back to the same value", () => {
    const value = { answer: "a\u009b2J\u202eb\u2028c\u007f\u001b]0;t\u0007 ünï", n: 1 };
    const text = stringifyForTerminal(value);
    expect(text).toBe('{"answer":"a\\u009b2J\\u202eb\\u2028c\\u007f\\u001b]0;t\\u0007 ünï","n":1}');
    expect(JSON.parse(text)).toEqual(value);
  });
});
