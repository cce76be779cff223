/** One shell word after quote removal, with what the policy needs to know about how it was written. */
export interface ShellWord {
  /** The word after quote removal; expansions are kept as written (`$HOME`, `$(date)`). */
  text: string;
  /** Some part of the word was quoted or escaped. */
  quoted: boolean;
  /** The shell would change the word before running it: parameter, command, process or arithmetic
   * substitution, an unquoted glob (`*`, `?`, `[`) or a brace expansion (`{a,b}`). */
  expands: boolean;
  /** An unquoted leading `NAME=value` / `NAME+=value` (an assignment in command position). */
  assignment: boolean;
}

/** Raised inside the splitter when a command cannot be understood; becomes `{ ok: false, reason }`. */
export class ShellParseError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = "ShellParseError";
  }
}

const SAFE_WORD = /^[A-Za-z0-9_@%+=:,./*?[\]{}~^-]+$/;

/** Renders a word for rule matching and display: as is when plain, single-quoted otherwise. */
export function quoteWord(word: ShellWord): string {
  if (word.expands && /[$`]|^[<>]\(/.test(word.text)) return word.text;
  if (SAFE_WORD.test(word.text)) return word.text;
  return `'${word.text.replaceAll("'", "'\\''")}'`;
}

/** Shell reserved words that may start a simple command and are stripped before the command name. */
export const RESERVED_PREFIXES: ReadonlySet<string> = new Set([
  "!",
  "{",
  "}",
  "if",
  "then",
  "else",
  "elif",
  "fi",
  "do",
  "done",
  "while",
  "until",
]);

/** Compound-command keywords this splitter does not model; a command using them is unparsable. */
export const UNSUPPORTED_KEYWORDS: ReadonlySet<string> = new Set([
  "case",
  "esac",
  "function",
  "[[",
  "]]",
  "coproc",
]);

/** True for a word written without any quoting that equals `keyword`. */
export function isBareWord(word: ShellWord | undefined, keyword?: string): boolean {
  if (word === undefined || word.quoted || word.expands) return false;
  return keyword === undefined || word.text === keyword;
}
