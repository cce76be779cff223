/**
 * `text` as one shell word that bash (and any POSIX shell, for the first two forms) reads back as exactly
 * `text`, so a printed `--allow WORD` can be pasted as it is: bare when every character is inert in a
 * word; else in single quotes, inside which nothing is special and `'` is written `'\''` (POSIX
 * "Shell Command Language" 2.2.2 Single-Quotes); else, when the text holds control characters (a newline
 * would break the printed line), bash's ANSI-C quoting `$'…'` (bash(1) QUOTING), with `\n`, `\t`,
 * `\xHH`, `\\`, `\'` escapes. `!` is escaped there too: interactive bash's history expansion does not look
 * inside single quotes, but `$'…'` is not documented to be spared.
 */
export function shellWord(text: string, options: { quote?: "when-needed" | "always" } = {}): string {
  if (options.quote !== "always" && /^[A-Za-z0-9_@%+=:,./-]+$/.test(text)) return text;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is looked for
  if (!/[\u0000-\u001f\u007f]/.test(text)) return `'${text.replaceAll("'", "'\\''")}'`;
  let body = "";
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (ch === "\\" || ch === "'") body += `\\${ch}`;
    else if (ch === "\n") body += "\\n";
    else if (ch === "\t") body += "\\t";
    else if (ch === "!" || code < 0x20 || code === 0x7f) body += `\\x${code.toString(16).padStart(2, "0")}`;
    else body += ch;
  }
  return `$'${body}'`;
}

/**
 * `--allow WORD` as a person pastes it: the flag and the rule as one shell word. `quote: "always"` quotes
 * even a plain rule, as the text the model reads does (a model repeating it in prose keeps it one word).
 */
export function allowFlag(rule: string, options: { quote?: "when-needed" | "always" } = {}): string {
  return `--allow ${shellWord(rule, options)}`;
}
