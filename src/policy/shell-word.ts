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

/** Accumulates one word; `shape` mirrors `text` with every quoted or expanded character as NUL. */
export class WordBuilder {
  text = "";
  shape = "";
  quoted = false;
  dynamic = false;

  plain(s: string): void {
    this.text += s;
    this.shape += s;
  }

  literal(s: string): void {
    this.text += s;
    this.shape += "\0".repeat(s.length);
    this.quoted = true;
  }

  expansion(raw: string): void {
    this.text += raw;
    this.shape += "\0".repeat(raw.length);
    this.dynamic = true;
  }

  build(): ShellWord {
    const glob = /[*?]|\[[^\]]*\]/.test(this.shape);
    const brace = /\{[^}]*(,|\.\.)[^}]*\}/.test(this.shape);
    return {
      text: this.text,
      quoted: this.quoted,
      expands: this.dynamic || glob || brace,
      assignment: /^[A-Za-z_][A-Za-z0-9_]*\+?=/.test(this.shape),
    };
  }
}

const PARAMETER_HEAD = /^(#?)([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])(\[(?:[0-9]+|@|\*)\])?/;
const PARAMETER_OPERATOR = /^(?::?[-=+?]|##?|%%?|\/[/#%]?|\^\^?|,,?)/;
const PARAMETER_OFFSET = /^: ?-?[0-9]+(?:: ?-?[0-9]+)?$/;

/**
 * Throws unless `${inner}` is a plain parameter expansion: a name, a special parameter or a literal
 * array index, optionally with a default/alternative, a pattern removal or replacement, a case change or
 * a literal offset. Indirection (`${!x}`), transformations (`${x@P}` expands prompt escapes, which run
 * command substitutions) and arithmetic on a name (`${a[i]}`, `${x:i}`: bash evaluates the value of `i`
 * as an expression, and `a[$(cmd)]` there runs cmd) are refused.
 */
export function checkParameter(inner: string): void {
  const head = PARAMETER_HEAD.exec(inner);
  const rest = head === null ? inner : inner.slice(head[0].length);
  const ok =
    head !== null &&
    (rest === "" || (head[1] === "" && (PARAMETER_OPERATOR.test(rest) || PARAMETER_OFFSET.test(rest))));
  if (!ok) {
    throw new ShellParseError(
      `parameter expansion \${${inner}} may run commands or read another variable; it is not checked`,
    );
  }
}

/**
 * Throws when a word holds `NAME[...$(...)...]` or a backquote in a subscript, quoted or not: bash
 * builtins that take a variable name (`[ -v`, `printf -v`, `read`, `unset`, `declare`, `let`)
 * evaluate the subscript as arithmetic, which runs the command substitution.
 */
export function checkSubscripts(word: ShellWord): void {
  if (/[A-Za-z_][A-Za-z0-9_]*\[[^\]]*(\$\(|`)/.test(word.text)) {
    throw new ShellParseError(`${word.text} has a command substitution in an array subscript`);
  }
}

/** Variables whose value decides which program runs or what it loads: setting one is never "just data". */
const DANGEROUS_VARIABLE =
  /^(PATH|IFS|ENV|BASH_ENV|BASH_FUNC_.*|SHELLOPTS|BASHOPTS|PS4|PROMPT_COMMAND|CDPATH|LD_.*|DYLD_.*|GIT_.*|PAGER|MANPAGER|EDITOR|VISUAL|LESSOPEN|LESSCLOSE|NODE_OPTIONS|NODE_PATH|PYTHONPATH|PYTHONSTARTUP|PYTHONHOME|PERL5OPT|PERL5LIB|PERLLIB|RUBYOPT|RUBYLIB|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|NPM_CONFIG_.*)$/i;

/** Throws when an assignment sets a variable that can make a command run other code (`PATH=. ls`). */
export function checkAssignment(word: ShellWord): void {
  checkSubscripts(word);
  const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(word.text)?.[0] ?? "";
  if (DANGEROUS_VARIABLE.test(name)) {
    throw new ShellParseError(`setting ${name} can change which program runs or what it loads`);
  }
}

const ANSI_C_ESCAPES: Record<string, string> = {
  n: "\n",
  t: "\t",
  r: "\r",
  "\\": "\\",
  "'": "'",
  '"': '"',
  a: "\x07",
  b: "\b",
  e: "\x1b",
  E: "\x1b",
  f: "\f",
  v: "\v",
  "?": "?",
};

/** Decodes `$'...'` starting at `start` (the `$`) with the common escapes; numeric and control escapes
 * are refused. Returns the text and the index after the closing quote. */
export function decodeAnsiC(src: string, start: number): { text: string; end: number } {
  let i = start + 2;
  let text = "";
  for (;;) {
    const c = src[i];
    if (c === undefined) throw new ShellParseError("unterminated $'...'");
    if (c === "'") return { text, end: i + 1 };
    if (c === "\\") {
      const e = src[i + 1] ?? "";
      const decoded = ANSI_C_ESCAPES[e];
      if (decoded === undefined) throw new ShellParseError(`escape \\${e} in $'...' is not supported`);
      text += decoded;
      i += 2;
    } else {
      text += c;
      i++;
    }
  }
}
