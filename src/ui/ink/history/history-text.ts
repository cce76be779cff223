/**
 * A finished history item as the text Ink prints for it, built once as a string. <Static> prints many
 * items in one frame (a sub-agent's lines enter the history together when it returns, and a run's end
 * flushes everything still open): as one <Text> per run of items instead of a Box and Texts per item,
 * React and Yoga handle a few nodes where they handled thousands, for the same characters on the screen.
 *
 * The styles are applied as Ink's <Text> applies them (chalk, the library Ink's Text uses, so bold and dim
 * follow the same terminal detection), and the indentation and wrapping as a Box with `marginLeft` and a
 * Text wrapping at `wrap` (Ink 8, build/dom.js measureTextNode and build/render-node-to-output.js: the
 * Text is measured by wrapping at the room it has, then wrapped again at its measured width, with
 * wrap-ansi `{ trim: false, hard: true }`, build/wrap-text.js).
 */
import { styledCharsFromTokens, styledCharsToString, tokenize } from "@alcalzone/ansi-tokenize";
import chalk from "chalk";
import widestLine from "widest-line";
import wrapAnsi from "wrap-ansi";
import type { HistoryItem } from "../state/state.ts";
import { type Tone, tone } from "../theme.ts";
import { renderMarkdownWhenLoaded } from "./markdown-loader.ts";

const MARKS: Record<HistoryItem["kind"], string> = {
  goal: "▸",
  message: "│",
  tool: "✓",
  delegate: "▸",
  return: "◂",
  approval: "✓",
  warning: "⚠",
  error: "✗",
  info: "↻",
  status: "■",
  note: "·",
  welcome: "",
};

/** The color of the item's mark. */
export function markTone(item: HistoryItem): Tone {
  if (item.kind === "status") return item.ok === false ? "red" : "green";
  if (item.kind === "note") return item.ok === false ? "red" : "gray";
  if (item.kind === "warning" || item.kind === "info") return "yellow";
  if (item.kind === "error" || item.ok === false) return "red";
  if (item.kind === "delegate" || item.kind === "goal") return "cyan";
  if (item.kind === "message") return "gray";
  return "green";
}

/** The mark an item starts with: a tool's or approval's verdict, else its kind's sign. */
export function itemMark(item: HistoryItem): string {
  if (item.kind === "tool" || item.kind === "approval") return item.ok === false ? "✗" : "✓";
  return MARKS[item.kind];
}

/** The color of a changed line of a diff: additions green, removals red. */
export function diffLineTone(line: string): Tone {
  return line.startsWith("+") ? "green" : "red";
}

/** `text` in a color, as Ink's <Text color> styles it; unstyled without one (colors off). */
function colored(text: string, color: Tone | undefined): string {
  return color === undefined ? text : chalk[color](text);
}

/** Columns an item is indented by: its agent's depth, tools and approvals one level below their agent. */
export function itemIndent(item: HistoryItem): number {
  return item.depth * 2 + (item.kind === "tool" || item.kind === "approval" ? 2 : 0);
}

/**
 * The item's text before indentation and wrapping, styled. `width`: the columns it has (markdown is
 * wrapped to it, list items hanging under their text); undefined leaves markdown unwrapped.
 */
export function itemText(item: HistoryItem, colors: boolean, width?: number): string {
  if (item.kind === "message")
    return `${chalk.bold(item.agentName)}\n${renderMarkdownWhenLoaded(item.text, colors, width)}`;
  const mark = itemMark(item);
  const who = item.kind === "delegate" || item.kind === "goal" ? `${item.agentName}: ` : "";
  let text = `${colored(`${mark} `, tone(colors, markTone(item)))}${who}${item.text}`;
  if (item.detail) text += chalk.dim(item.detail.map((line) => `\n  ${line}`).join(""));
  for (const line of item.diff?.lines ?? []) text += colored(`\n  ${line}`, tone(colors, diffLineTone(line)));
  const more = item.diff?.more ?? 0;
  if (more > 0) text += chalk.dim(`\n  … ${more} more ${more === 1 ? "line" : "lines"}`);
  return text;
}

const wrap = (text: string, width: number): string => wrapAnsi(text, width, { trim: false, hard: true });

/** Wraps as an Ink <Text> with `width` columns of room does: measured at the room, drawn at the measure. */
function wrapAsInk(text: string, width: number): string {
  if (width <= 0) return text;
  const natural = widestLine(text);
  if (natural <= width) return text;
  const measured = widestLine(wrap(text, width));
  return wrap(text, Math.max(1, measured));
}

/**
 * Prefixes each line with `indent` spaces. A style left open across a line break would otherwise style
 * the next line's indentation (Ink's output keeps styles across line breaks): lines that hold escape
 * sequences are re-serialized each with its own styles, opened at its first character, closed at its end.
 */
function indentLines(text: string, indent: number): string {
  const pad = " ".repeat(indent);
  const lines = text.split("\n");
  if (indent === 0 || lines.length === 1 || !text.includes("\u001b"))
    return lines.map((l) => pad + l).join("\n");
  let row: ReturnType<typeof styledCharsFromTokens> = [];
  const out: string[] = [];
  for (const char of styledCharsFromTokens(tokenize(text))) {
    if (char.value === "\n") {
      out.push(pad + styledCharsToString(row));
      row = [];
    } else row.push(char);
  }
  out.push(pad + styledCharsToString(row));
  return out.join("\n");
}

/** The rows Ink prints for the item in a terminal `columns` wide: styled, wrapped and indented. */
export function itemRows(item: HistoryItem, colors: boolean, columns: number): string {
  const indent = itemIndent(item);
  const width = columns - indent;
  return indentLines(wrapAsInk(itemText(item, colors, width), width), indent);
}
