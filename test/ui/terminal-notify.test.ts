/**
 * The terminal's notification (src/ui/terminal-notify.ts): `auto` chooses OSC 9 or the bell from the
 * environment as Codex does, and the message a model or an MCP server wrote cannot carry its own escape
 * sequences into the OSC 9 it is sent in.
 */
import { expect, test } from "bun:test";
import { notificationSequence, notifyMethodFor, terminalNotifier } from "../../src/ui/terminal-notify.ts";

test("auto: OSC 9 for the terminals that show it, the bell elsewhere and in Windows Terminal", () => {
  expect(notifyMethodFor("auto", { TERM_PROGRAM: "ghostty" })).toBe("osc9");
  expect(notifyMethodFor("auto", { TERM_PROGRAM: "WezTerm" })).toBe("osc9");
  expect(notifyMethodFor("auto", { TERM_PROGRAM: "WarpTerminal" })).toBe("osc9");
  expect(notifyMethodFor("auto", { ITERM_SESSION_ID: "w0t0p0" })).toBe("osc9");
  expect(notifyMethodFor("auto", { TERM: "xterm-kitty" })).toBe("osc9");
  expect(notifyMethodFor("auto", { TERM: "xterm-256color" })).toBe("bell");
  expect(notifyMethodFor("auto", { TERM_PROGRAM: "Apple_Terminal" })).toBe("bell");
  expect(notifyMethodFor("auto", { TERM_PROGRAM: "WezTerm", WT_SESSION: "1" })).toBe("bell");
  expect(notifyMethodFor("osc9", {})).toBe("osc9");
  expect(notifyMethodFor("off", { TERM_PROGRAM: "ghostty" })).toBe("off");
});

test("a message with its own escape sequences and BEL cannot end the OSC early or drive the terminal", () => {
  const hostile = "write x\x07\x1b]9;pwned\x07\x1b[2J\nsecond line";
  const sequence = notificationSequence("osc9", hostile);
  expect(sequence.startsWith("\x1b]9;")).toBe(true);
  expect(sequence.endsWith("\x07")).toBe(true);
  const body = sequence.slice(4, -1);
  const controls = [...body].filter((c) => (c.codePointAt(0) ?? 0) < 0x20 || c === "\x7f");
  expect(controls).toEqual([]);
  expect(notificationSequence("osc9", "x".repeat(1000)).length).toBe(4 + 200 + 1);
  expect(notificationSequence("bell", hostile)).toBe("\x07");
});

test("off writes nothing; a notifier writes one sequence per message", () => {
  const written: string[] = [];
  const sink = { write: (chunk: string) => written.push(chunk) };
  expect(terminalNotifier("off", {}, sink)).toBeUndefined();
  terminalNotifier("osc9", {}, sink)?.("root needs your approval");
  expect(written).toEqual(["\x1b]9;root needs your approval\x07"]);
});
