import { Marked, type MarkedExtension, type Tokens } from "marked";
import { markedTerminal } from "marked-terminal";
import wrapAnsi from "wrap-ansi";
import { stripEscapeSequences } from "../../../kernel/text/terminal-text.ts";
import { palette } from "../../ansi.ts";

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

/**
 * marked-terminal 7.3's `text` renderer prints a token's raw text and ignores its inline `tokens`, so since
 * marked 13 the text of a tight list item (a `text` token holding `codespan`, `strong`, `em`...) shows its
 * markdown unrendered (marked-terminal issues #304 and #371; the proposed fix, PR #366, renders
 * `token.tokens` inline, as marked's own text renderer does). Until that ships: render the inline tokens
 * here, and hand every other text token back to marked-terminal (`false` falls back to the earlier
 * renderer, https://marked.js.org/using_pro#renderer).
 */
const inlineListText: MarkedExtension = {
  renderer: {
    text(token: Tokens.Text | Tokens.Escape) {
      const tokens = "tokens" in token ? token.tokens : undefined;
      return tokens && tokens.length > 0 ? this.parser.parseInline(tokens) : false;
    },
  },
};

function instance(colors: boolean): Marked {
  let marked = instances.get(colors);
  if (marked) return marked;
  const c = palette(colors);
  const plain = (text: string): string => text;
  // Headings as Claude Code shows them: no `#` prefix, bold (and underlined for the first level). Without
  // colors (NO_COLOR) every escape sequence is stripped (see renderMarkdown), bold and underline too, so
  // a heading keeps its markdown `#` markers (`# Title`, `## Section`) to stand apart from the text: plain
  // text, whatever the terminal shows. no-color.org asks only that no ANSI color be added.
  const heading = (text: string): string => c.bold(text);
  marked = new Marked(
    markedTerminal({
      heading,
      firstHeading: colors ? (text) => `\u001b[4m${c.bold(text)}\u001b[24m` : heading,
      showSectionPrefix: !colors,
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
    inlineListText,
  );
  instances.set(colors, marked);
  return marked;
}

/** A list item's first line: indentation, bullet (`*`, `-`, `1.`) and the space after it. */
const BULLET = /^(\s*)(?:[*+-]|\d+[.)])\s+/;

/**
 * Wraps each rendered line to `width` columns (escape sequences take none), continuing a list item under
 * its text rather than under its bullet, and any other line at its own indentation.
 */
function wrapLines(text: string, width: number): string {
  return text
    .split("\n")
    .map((line) => {
      if (line.length <= width) return line; // escape sequences only add length: it fits
      const visible = stripEscapeSequences(line);
      if (visible.length <= width) return line;
      const hang = (visible.match(BULLET)?.[0] ?? visible.match(/^\s*/)?.[0] ?? "").length;
      const room = Math.max(10, width - hang);
      const lead = line.slice(0, line.length - line.trimStart().length);
      const [first = "", ...rest] = wrapAnsi(line.slice(lead.length), room, { hard: true, trim: true }).split(
        "\n",
      );
      // The first line keeps its own indentation and bullet (they are inside `room` once the hang is
      // the bullet); the rest hang under the text.
      const firstLine = `${lead}${first}`;
      return [firstLine, ...rest.map((r) => `${" ".repeat(hang)}${r}`)].join("\n");
    })
    .join("\n");
}

/**
 * Renders markdown for the terminal; trailing blank lines removed. With `width`, lines are wrapped to it
 * (list items hang under their text). Never throws: bad input shows as is.
 */
export function renderMarkdown(text: string, colors: boolean, width?: number): string {
  try {
    const out = instance(colors).parse(text, { async: false });
    const rendered = (colors ? out : stripEscapeSequences(out)).replace(/\s+$/, "");
    return width !== undefined && width > 0 ? wrapLines(rendered, width) : rendered;
  } catch {
    return text;
  }
}
