import { describe, expect, test } from "bun:test";
import {
  SHOWN_LINE_BREAK,
  stringifyForTerminal,
  stripEscapeSequences,
  TerminalSafeStream,
  terminalSafe,
  terminalSafeValue,
} from "../../../src/kernel/text/terminal-text.ts";

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

describe("terminalSafeValue", () => {
  test("a value with nothing to clean is returned as it is (renderers clean every event: no copy)", () => {
    const event = {
      kind: "tool_start",
      name: "root",
      data: { tool: "exec", args: { command: "ls\n-la\ttab" } },
    };
    expect(terminalSafeValue(event)).toBe(event);
  });

  test("free text loses sequences and keeps newlines; one-line fields show their breaks, however deep", () => {
    const event = {
      name: "root",
      data: {
        goal: "line one\r\nline two\u001b]52;c;eA==\u0007",
        calls: [{ tool: "mcp__s__x\n✓ approved exec", args: { text: "a\u009b2Jb" } }],
      },
    };
    const safe = terminalSafeValue(event);
    expect(safe).not.toBe(event);
    expect(safe.data.goal).toBe("line one\nline two");
    expect(safe.data.calls[0]?.tool).toBe(`mcp__s__x${SHOWN_LINE_BREAK}✓ approved exec`);
    expect(safe.data.calls[0]?.args.text).toBe("ab");
    expect(event.data.goal).toContain("\u001b"); // the original is left alone
  });

  test("a line break alone in a one-line field is enough to clean it", () => {
    const value = { rule: "exec:ls\nrm" };
    expect(terminalSafeValue(value).rule).toBe(`exec:ls${SHOWN_LINE_BREAK}rm`);
  });
});
