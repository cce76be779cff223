/**
 * Text from the model (the answer, tool targets, denial reasons) shown inertly in GitHub-flavoured
 * Markdown: it can neither format the job summary, nor inject HTML, links or images, nor break a table.
 */

/**
 * Plain text as Markdown that renders as the same text: every ASCII punctuation character
 * backslash-escaped (CommonMark 0.31.2, 2.4 "Backslash escapes": any ASCII punctuation character may be
 * backslash-escaped, and is then literal, so `<` cannot open HTML, `&` cannot start an entity, `|` cannot
 * end a GFM table cell), and line breaks folded to spaces so one cell or list item stays one line.
 */
export function escapeText(text: string): string {
  return text.replace(/\r\n?|\n/g, " ").replace(/[!-/:-@[-`{-~]/g, (ch) => `\\${ch}`);
}

/** The longest run of `ch` in `text`. */
function longestRun(text: string, ch: string): number {
  let longest = 0;
  let run = 0;
  for (const c of text) {
    run = c === ch ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  return longest;
}

/**
 * Text as a code span: delimited by a backtick string longer than any run of backticks inside, padded
 * with a space when it starts or ends with a backtick (CommonMark 6.1 "Code spans"); inside, nothing is
 * Markdown or HTML. Not for table cells: GFM reads `|` as a cell border even in a code span.
 */
export function codeSpan(text: string): string {
  const oneLine = text.replace(/\r\n?|\n/g, " ");
  const fence = "`".repeat(longestRun(oneLine, "`") + 1);
  const pad = oneLine.startsWith("`") || oneLine.endsWith("`") || oneLine.trim() === "" ? " " : "";
  return `${fence}${pad}${oneLine}${pad}${fence}`;
}

/**
 * Text as a fenced code block whose fence is longer than any backtick run inside, so no line of the text
 * can close it (CommonMark 4.5 "Fenced code blocks": the closing fence must be at least as long as the
 * opening one); its content is literal text.
 */
export function codeBlock(text: string): string {
  const fence = "`".repeat(Math.max(3, longestRun(text, "`") + 1));
  const body = text.endsWith("\n") ? text : `${text}\n`;
  return `${fence}text\n${body}${fence}\n`;
}
