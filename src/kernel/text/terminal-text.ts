/**
 * Text that reaches a terminal. Model- and tool-controlled text could otherwise drive the user's terminal:
 * set the window title (OSC 0/2), write the clipboard (OSC 52), plant hyperlinks (OSC 8), clear the
 * screen or move the cursor (CSI), send device-control strings (DCS), or hide text with backspace, carriage
 * return and bidirectional overrides. One definition of an escape sequence serves exec (which strips them
 * from what the model sees) and every terminal sink (which shows only plain text plus our own colours).
 * Sources: ECMA-48 (control functions: CSI, OSC, DCS, SOS/PM/APC, C1), xterm ctlseqs (OSC 0/2/8/52);
 * google-gemini/gemini-cli PR #8636 (cursor moves in model output hid part of a command in the approval
 * dialog) and issue #26807 (JSON fields and error messages left unsanitized); daintreehq/daintree issue
 * #3703 (OSC 52 from agent output overwrote the clipboard). Ink 8 strips CSI but keeps OSC sequences
 * (node_modules/ink/build/sanitize-ansi.js), so the Ink path needs this too.
 */
import { mapStrings } from "./map-strings.ts";

// biome-ignore-start lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
/**
 * A whole escape sequence, 7-bit or 8-bit: CSI (`ESC [` or U+009B, parameters, intermediates, final byte);
 * a string command (OSC, DCS, SOS, PM, APC: `ESC ] P X ^ _` or U+009D/0090/0098/009E/009F) up to its
 * terminator (BEL or ST) or, when unterminated, up to the next ESC; any other `ESC` + intermediates + final.
 */
const ESCAPE_SEQUENCE =
  /(?:\u001b\[|\u009b)[0-?]*[ -/]*[@-~]|(?:\u001b[\]PX^_]|[\u0090\u0098\u009d\u009e\u009f])[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?|\u001b[ -/]*[0-~]/g;
/**
 * A whole escape sequence at the start of the text: string commands only when terminated, and the plain
 * `ESC` form never taking the CSI and string introducers (`[ ] P X ^ _`) for a final byte.
 */
const COMPLETE_AT_START =
  /^(?:(?:\u001b\[|\u009b)[0-?]*[ -/]*[@-~]|(?:\u001b[\]PX^_]|[\u0090\u0098\u009d\u009e\u009f])[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)|\u001b[ -/]*[0-OQ-WYZ\\`a-~])/;
/** Where an escape sequence may begin (ESC and the 8-bit introducers), or a CR whose LF may follow. */
const INTRODUCER = /[\u001b\u0090\u0098\u009b\u009d\u009e\u009f\r]/g;
/** Control characters left once sequences are gone: C0 except tab and newline, DEL, C1, bidi overrides. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
/** Whether text holds a character {@link terminalSafe} removes or starts a sequence with (ESC, CR, C1 are all CONTROL). */
const HAS_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
/** Whether a one-line field needs {@link terminalLine}: a control character or a line break or tab. */
const HAS_CONTROL_OR_BREAK = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
// biome-ignore-end lint/suspicious/noControlCharactersInRegex: end of the control-character patterns.

/**
 * The first control character or line break of a one-line field, as `U+XXXX`, or undefined when there is
 * none: names (a skill's, a file's) holding one are refused rather than shown cleaned.
 */
export function controlCharacterIn(text: string): string | undefined {
  const found = HAS_CONTROL_OR_BREAK.exec(text);
  return found ? `U+${found[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}` : undefined;
}

/** Removes escape sequences (colours, cursor moves, titles), keeping every other character. */
export function stripEscapeSequences(text: string): string {
  return text.replace(ESCAPE_SEQUENCE, "");
}

/**
 * Text safe to write to a terminal: escape sequences removed whole, `\r\n` kept as a newline, every other
 * control character (BEL, backspace, lone CR, ESC, C1, bidi overrides) removed; tabs and newlines stay.
 */
export function terminalSafe(text: string): string {
  // Most text holds no control character at all: one scan, no copy (every sequence starts with one).
  if (!HAS_CONTROL.test(text)) return text;
  return text.replace(ESCAPE_SEQUENCE, "").replace(/\r\n/g, "\n").replace(CONTROL, "");
}

/** Line breaks a terminal honours (LF, VT, FF, CR, NEL, LINE and PARAGRAPH SEPARATOR), and tabs. */
const LINE_BREAKS = /[\n\v\f\r\t\u0085\u2028\u2029]/g;
/** What a line break in a one-line field is shown as: visible, so a forged second line reads as one. */
export const SHOWN_LINE_BREAK = "\u2424";

/**
 * Text for a one-line field (a name, a rule, a target): {@link terminalSafe}, and every line break or tab
 * replaced by a visible symbol (U+2424 SYMBOL FOR NEWLINE), so a name such as an MCP tool called
 * "x\n✓ approved exec …" cannot start a line of its own on the screen.
 */
export function terminalLine(text: string): string {
  return terminalSafe(text).replace(LINE_BREAKS, SHOWN_LINE_BREAK);
}

/**
 * Property names that hold names or one-line labels wherever they appear in an event, an approval request
 * or a result (agent and tool names, MCP servers, skills, rules, targets, models): {@link terminalSafeValue}
 * makes them {@link terminalLine}. Free text (goals, answers, previews, output) keeps its newlines.
 */
const ONE_LINE_KEYS = new Set([
  "name",
  "agent",
  "agentName",
  "childName",
  "tool",
  "server",
  "serverName",
  "skill",
  "rule",
  "sessionRule",
  "target",
  "model",
  "from",
  "to",
  "decidedBy",
]);

/**
 * A copy of a JSON-like value (an event, a request, a result) with every string made {@link terminalSafe},
 * and names and one-line fields (ONE_LINE_KEYS) made {@link terminalLine}: the one place display text is
 * cleaned, used by every terminal sink (stderr progress, the Ink store and the approval prompt). When no
 * string needs cleaning the value itself is returned: treat the result as read-only.
 */
export function terminalSafeValue<T>(value: T): T {
  // Renderers clean every event: most need nothing, and then the value itself is returned (no copy).
  if (!needsCleaning(value, undefined)) return value;
  return mapStrings(value, (text, key) =>
    key !== undefined && ONE_LINE_KEYS.has(key) ? terminalLine(text) : terminalSafe(text),
  );
}

/** Whether {@link terminalSafeValue} would change a string of `value` (walked as mapStrings walks it). */
function needsCleaning(value: unknown, key: string | undefined): boolean {
  if (typeof value === "string") {
    return (key !== undefined && ONE_LINE_KEYS.has(key) ? HAS_CONTROL_OR_BREAK : HAS_CONTROL).test(value);
  }
  if (Array.isArray(value)) return value.some((item) => needsCleaning(item, undefined));
  if (value !== null && typeof value === "object") {
    for (const name in value) {
      if (Object.hasOwn(value, name) && needsCleaning((value as Record<string, unknown>)[name], name))
        return true;
    }
  }
  return false;
}

/** What JSON.stringify leaves raw but a terminal may act on: DEL, C1 controls, bidi overrides, line separators. */
const JSON_RAW_CONTROLS = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * JSON text of `value` with the control characters JSON.stringify leaves raw written as `\uXXXX` escapes:
 * the same JSON value, byte for byte safe on a terminal (JSON.stringify already escapes C0 and ESC).
 */
export function stringifyForTerminal(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(
    JSON_RAW_CONTROLS,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** Characters a stream holds back waiting for the end of a sequence; past this it gives up and cleans. */
const MAX_HELD = 1_024;

/**
 * {@link terminalSafe} for text that arrives in pieces (a streamed answer): a sequence split across two
 * pieces is held back until it completes, so neither half leaks its body (`]52;c;...`) to the screen.
 */
export class TerminalSafeStream {
  private held = "";

  /** The safe text of everything pushed so far that is complete. */
  push(chunk: string): string {
    const text = this.held + chunk;
    const cut = unfinishedTail(text);
    if (cut < 0 || text.length - cut > MAX_HELD) {
      this.held = "";
      return terminalSafe(text);
    }
    this.held = text.slice(cut);
    return terminalSafe(text.slice(0, cut));
  }

  /** What is still held, cleaned; call once at the end of the stream. */
  end(): string {
    const rest = terminalSafe(this.held);
    this.held = "";
    return rest;
  }
}

/** Where an unfinished sequence (or a CR that may start CR LF) begins at the end of `text`, or -1. */
function unfinishedTail(text: string): number {
  let last = -1;
  for (const match of text.matchAll(INTRODUCER)) last = match.index;
  if (last < 0) return -1;
  const tail = text.slice(last);
  if (tail === "\r") return last;
  if (tail.startsWith("\r")) return -1;
  return COMPLETE_AT_START.test(tail) ? -1 : last;
}
