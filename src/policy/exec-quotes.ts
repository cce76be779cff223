/**
 * Two spellings of one exec pattern. The policy matches commands as the splitter renders them
 * (shell-word.ts quoteWord: a word with a quote in it is single-quoted, `'` written `'\''`), which no one
 * reads easily: `node -e 'import('\''./greet.js'\'')'`. People write `node -e "import('./greet.js')"`.
 * `readableExecPattern` turns a rendered word holding `'` into a double-quoted one where bash reads that
 * back as the same word (nothing inside that double quotes treat specially: `"`, `$`, `` ` ``, `\`, and
 * `!` for interactive history expansion, bash(1) QUOTING); `canonicalExecPattern` turns a pattern as
 * written back into the rendering the policy matches, word by word, wherever the word holds no glob,
 * escape or expansion (such a word is left exactly as written).
 */

/** Characters bash treats specially inside double quotes (bash(1) QUOTING), plus control characters. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is looked for
const DOUBLE_QUOTE_SPECIAL = /["$`\\!\u0000-\u001f\u007f]/;
/** A word the splitter renders bare (shell-word.ts SAFE_WORD less the glob characters). */
const BARE = /^[A-Za-z0-9_@%+=:,./~^-]+$/;
/** Characters that make a word a glob or an escape in a pattern (match.ts globSource). */
const PATTERN_SPECIAL = /[*?[\]{}\\]/;

/** `text` single-quoted as the splitter renders it: `'` written `'\''`. */
function singleQuoted(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}

/** The pattern's words: split at unquoted spaces, quotes kept. Undefined when a quote is left open. */
function words(pattern: string): string[] | undefined {
  const out: string[] = [];
  let word = "";
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i] as string;
    if (quote === undefined && ch === "\\" && i + 1 < pattern.length) {
      word += ch + pattern[i + 1];
      i++;
      continue;
    }
    if (quote === '"' && ch === "\\" && i + 1 < pattern.length) {
      word += ch + pattern[i + 1];
      i++;
      continue;
    }
    if (quote === undefined && ch === " ") {
      if (word !== "") out.push(word);
      word = "";
      continue;
    }
    if (ch === "'" || ch === '"') {
      if (quote === undefined) quote = ch;
      else if (quote === ch) quote = undefined;
    }
    word += ch;
  }
  if (quote !== undefined) return undefined;
  if (word !== "") out.push(word);
  return out;
}

/**
 * The text of a word written with quotes, when it is a plain literal: quotes removed, no escape, glob or
 * expansion anywhere in it. Undefined otherwise (the word stays as written).
 */
function literalWord(word: string): string | undefined {
  let text = "";
  let quote: "'" | '"' | undefined;
  let quotedAny = false;
  for (let i = 0; i < word.length; i++) {
    const ch = word[i] as string;
    if (quote === undefined && (ch === "'" || ch === '"')) {
      quote = ch;
      quotedAny = true;
      continue;
    }
    if (ch === quote) {
      quote = undefined;
      continue;
    }
    // `\'` between quoted parts: the quote itself (the splitter's `'\''`).
    if (quote === undefined && ch === "\\" && (word[i + 1] === "'" || word[i + 1] === '"')) {
      text += word[i + 1];
      i++;
      continue;
    }
    if (quote === undefined && (PATTERN_SPECIAL.test(ch) || ch === "$" || ch === "`")) return undefined;
    if (quote === '"' && DOUBLE_QUOTE_SPECIAL.test(ch)) return undefined;
    if (PATTERN_SPECIAL.test(ch)) return undefined;
    text += ch;
  }
  return quotedAny ? text : undefined;
}

/** A rendered exec command (the splitter's text, before a pattern's escapes) with each `'…'\''…'` word that reads the same double-quoted, double-quoted. */
export function readableExecPattern(rendered: string): string {
  const split = words(rendered);
  if (split === undefined) return rendered;
  return split
    .map((word) => {
      const text = literalWord(word);
      if (text === undefined || !text.includes("'") || DOUBLE_QUOTE_SPECIAL.test(text)) return word;
      // Only a word in the splitter's own rendering is respelled: the result must map back to it.
      return singleQuoted(text) === word ? `"${text}"` : word;
    })
    .join(" ");
}

/** An exec pattern as written, with its plain quoted words in the splitter's rendering as a pattern
 * matches it (literalPattern's escapes included). */
export function canonicalExecPattern(pattern: string): string {
  const split = words(pattern);
  if (split === undefined) return pattern;
  if (!split.some((word) => word.includes("'") || word.includes('"'))) return pattern;
  return split
    .map((word) => {
      const text = literalWord(word);
      if (text === undefined) return word;
      // As a pattern: the `\` of `'\''` escaped, as literalPattern escapes it (a glob reads `\'` as `'`).
      return BARE.test(text) ? text : singleQuoted(text).replaceAll("\\", "\\\\");
    })
    .join(" ");
}
