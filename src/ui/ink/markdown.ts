import { Marked } from "marked";
import { markedTerminal } from "marked-terminal";
import { stripEscapeSequences } from "../../kernel/terminal-text.ts";
import { palette } from "../ansi.ts";

/**
 * Assistant text as terminal markdown for the Ink view (headings, emphasis, lists, code fences as an
 * indented monospace block), through marked (https://marked.js.org) and its terminal renderer
 * marked-terminal (https://github.com/mikaelbr/marked-terminal). Loaded with the Ink renderer only, so the
 * plain, JSON and helper paths never pay for it. The text it gets is already terminal-safe (the UI store
 * strips escape sequences from model text); the only escape sequences in the result are the renderer's
 * own styles, and none at all without colors (NO_COLOR): its code highlighter picks colors on its own,
 * so they are stripped then.
 */

const instances = new Map<boolean, Marked>();

function instance(colors: boolean): Marked {
  let marked = instances.get(colors);
  if (marked) return marked;
  const c = palette(colors);
  const plain = (text: string): string => text;
  marked = new Marked(
    markedTerminal({
      heading: (text) => c.bold(text),
      firstHeading: (text) => c.bold(text),
      strong: (text) => c.bold(text),
      em: colors ? (text) => `\u001b[3m${text}\u001b[23m` : plain,
      codespan: (text) => c.yellow(text),
      code: (text) => c.yellow(text),
      blockquote: (text) => c.dim(text),
      link: (text) => c.cyan(text),
      href: (text) => c.cyan(text),
      del: (text) => c.dim(text),
      html: plain,
      emoji: false,
      tab: 2,
    }),
  );
  instances.set(colors, marked);
  return marked;
}

/** Renders markdown for the terminal; trailing blank lines removed. Never throws: bad input shows as is. */
export function renderMarkdown(text: string, colors: boolean): string {
  try {
    const out = instance(colors).parse(text, { async: false });
    const rendered = (colors ? out : stripEscapeSequences(out)).replace(/\s+$/, "");
    return rendered;
  } catch {
    return text;
  }
}
