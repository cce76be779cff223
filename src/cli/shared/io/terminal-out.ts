/**
 * The one output seam of the commands that show what a repository, a server, a catalog or a model wrote
 * (`agent skills`, `models`, `agents`, `sessions`, `mcp`, `eval`): every write passes the kernel's terminal
 * filter (src/kernel/text/terminal-text.ts, the one the run's stderr uses), so OSC 52 (clipboard), OSC 0
 * (title), CSI 2J (clear screen), lone carriage returns and C1 controls never reach the screen, piped or not.
 * A command gets it by construction: its CommandIo is made here. What the filter cannot know is which of
 * a command's newlines are its own: a field shown inside a line goes through {@link safeLine}, so a name
 * or description holding `\n agent: warning: …` shows the break as a visible symbol instead of starting a
 * forged line. JSON goes through {@link TerminalOut.json}: the same value, control characters escaped.
 */
import { mapStrings } from "../../../kernel/text/map-strings.ts";
import { stringifyForTerminal, terminalLine, terminalSafe } from "../../../kernel/text/terminal-text.ts";

/** A stream a command reports on. */
export type Out = { write(text: string): unknown };

/** stdout or stderr of a command: everything written is terminal-safe. */
export class TerminalOut {
  readonly #sink: Out;

  constructor(sink: Out) {
    this.#sink = sink;
  }

  /** Writes `text` without escape sequences or control characters (newlines and tabs stay). */
  write(text: string): void {
    this.#sink.write(terminalSafe(text));
  }

  /** Writes `value` as JSON and a newline: the same value, with every control character escaped. */
  json(value: unknown, indent?: number): void {
    this.#sink.write(`${stringifyForTerminal(value, indent)}\n`);
  }
}

/**
 * A tagged template for one line of output: each interpolated value is made one terminal-safe line
 * (`terminalLine`: line breaks and tabs shown as U+2424), the literal parts are the command's own.
 * `safeLine\`${name}  ${path}\n\`` cannot be split into two lines by what `name` holds.
 */
export function safeLine(parts: TemplateStringsArray, ...values: unknown[]): string {
  let text = parts[0] ?? "";
  for (let i = 0; i < values.length; i++) text += terminalLine(String(values[i])) + (parts[i + 1] ?? "");
  return text;
}

/**
 * A copy of a report (a catalog's or a server's data) with every string made one terminal line, for a
 * formatter that lays its fields out in lines and columns: a model id holding `\n` cannot add a line.
 */
export function withOneLineStrings<T>(value: T): T {
  return mapStrings(value, terminalLine);
}
