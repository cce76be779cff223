import {
  checkAssignment,
  checkParameter,
  checkSubscripts,
  decodeAnsiC,
  isBareWord,
  quoteWord,
  RESERVED_PREFIXES,
  ShellParseError,
  type ShellWord,
  UNSUPPORTED_KEYWORDS,
  WordBuilder,
} from "./shell-word.ts";
import { type CommandSink, MAX_SHELL_DEPTH, unwrapCommand } from "./shell-wrappers.ts";

/**
 * The simple commands a shell command line would run, or why it could not be understood.
 * `commands` holds each argv (quotes removed, expansions kept as written), `texts` the command as allow
 * rules must match it: the argv re-joined (`git commit -m 'a b'`) behind the environment it is given
 * (`HOME=. git status`, `env -i X=1 git status`), so setting a variable is never covered by a rule for
 * the bare command. `writes` holds the files output redirections write to (`/dev/null` and fd
 * duplications like `2>&1` are left out).
 */
export type SplitResult =
  | { ok: true; commands: string[][]; texts: string[]; writes: string[] }
  | { ok: false; reason: string };

const MAX_LENGTH = 65_536;
const META = new Set([" ", "\t", "\n", ";", "&", "|", "(", ")", "<", ">"]);
const HARMLESS_TARGETS = new Set(["/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty"]);
const REDIRECT_OPS = ["&>>", "&>", "<<<", "<<-", "<<", "<>", "<&", "<", ">>", ">|", ">&", ">"];

interface Collected {
  commands: { argv: ShellWord[]; prefix: ShellWord[] }[];
  writes: string[];
}

interface PendingHeredoc {
  delimiter: string;
  quoted: boolean;
  stripTabs: boolean;
}

class Parser {
  private pos = 0;
  private readonly pending: PendingHeredoc[] = [];
  private readonly sink: CommandSink;

  constructor(
    private readonly src: string,
    private readonly out: Collected,
    private readonly depth: number,
  ) {
    if (depth > MAX_SHELL_DEPTH) throw new ShellParseError("commands nested too deeply");
    this.sink = {
      command: (argv, prefix) => this.out.commands.push({ argv, prefix }),
      script: (source, d) => new Parser(source, this.out, d).parseAll(),
    };
  }

  parseAll(): void {
    this.parseList(null);
    const open = this.pending[0];
    if (open) throw new ShellParseError(`heredoc <<${open.delimiter} has no body`);
  }

  /** Parses commands until the end of input, or through the `)` that closes a subshell or `$(`. */
  private parseList(closer: ")" | null): void {
    let words: ShellWord[] = [];
    /** Something (a word, a redirection, a subshell) since the last operator. */
    let content = false;
    /** A `&&`, `||` or `|` still waiting for the command after it (a newline may come first). */
    let pending: string | null = null;
    const finish = () => {
      this.emit(words);
      words = [];
      content = false;
    };
    const operator = (op: string, binary: boolean) => {
      // bash refuses `; ls`, `ls | | wc`, `&& ls`: nothing runs, so neither do we claim to know what would.
      if (!content) throw new ShellParseError(`syntax error: ${op} with no command before it`);
      this.pos += op.length;
      finish();
      pending = binary ? op : null;
    };
    const end = () => {
      if (pending !== null && !content) {
        throw new ShellParseError(`syntax error: ${pending} with no command after it`);
      }
      finish();
    };
    for (;;) {
      const c = this.src[this.pos];
      const next = this.src[this.pos + 1];
      if (c === undefined) {
        if (closer) throw new ShellParseError("unbalanced parentheses: missing )");
        end();
        return;
      }
      if (c === " " || c === "\t") {
        this.pos++;
      } else if (c === "\\" && next === "\n") {
        this.pos += 2;
      } else if (c === "\n") {
        this.pos++;
        if (pending === null) finish();
        this.readHeredocBodies();
      } else if (c === "#") {
        const stop = this.src.indexOf("\n", this.pos);
        this.pos = stop < 0 ? this.src.length : stop;
      } else if (c === ")") {
        if (closer !== ")") throw new ShellParseError("unbalanced parentheses: unexpected )");
        this.pos++;
        end();
        return;
      } else if (c === "(") {
        if (!words.every((w) => isBareWord(w) && RESERVED_PREFIXES.has(w.text))) {
          throw new ShellParseError(
            "unexpected ( (function definitions, arrays and extended globs are not supported)",
          );
        }
        if (next === "(") throw new ShellParseError("arithmetic commands (( )) are not supported");
        this.pos++;
        words = [];
        this.parseList(")");
        content = true;
        pending = null;
      } else if (c === ";") {
        if (next === ";") throw new ShellParseError("case clauses (;;) are not supported");
        operator(";", false);
      } else if (c === "&" && next !== ">") {
        operator(next === "&" ? "&&" : "&", next === "&");
      } else if (c === "|") {
        operator(next === "|" || next === "&" ? `|${next}` : "|", true);
      } else {
        content = true;
        pending = null;
        if ((c === "<" || c === ">") && next === "(") {
          words.push(this.processSubstitution());
        } else if (c === "<" || c === ">" || c === "&") {
          this.redirect();
        } else {
          const word = this.readWord();
          const after = this.src[this.pos];
          if ((after === "<" || after === ">") && !word.quoted && /^\d+$/.test(word.text)) this.redirect();
          else words.push(word);
        }
      }
    }
  }

  /**
   * Strips reserved words and sets assignments in front aside as the command's prefix, then hands the
   * command to the wrapper logic.
   */
  private emit(words: ShellWord[]): void {
    for (const w of words) checkSubscripts(w);
    let i = 0;
    const prefix: ShellWord[] = [];
    while (i < words.length) {
      const w = words[i]!;
      if (w.assignment) {
        checkAssignment(w);
        prefix.push(w);
      } else if (!(isBareWord(w) && RESERVED_PREFIXES.has(w.text))) break;
      i++;
    }
    const head = words[i];
    if (head === undefined) return;
    if (isBareWord(head) && UNSUPPORTED_KEYWORDS.has(head.text)) {
      throw new ShellParseError(`'${head.text}' is not supported`);
    }
    // A loop header's words are data; substitutions in them were collected while reading.
    if (isBareWord(head, "for") || isBareWord(head, "select")) return;
    unwrapCommand(words.slice(i), this.sink, this.depth, prefix);
  }

  private readWord(): ShellWord {
    const b = new WordBuilder();
    for (;;) {
      const c = this.src[this.pos];
      if (c === undefined || META.has(c)) return b.build();
      if (c === "\\") {
        const n = this.src[this.pos + 1];
        if (n === "\n") {
          this.pos += 2;
        } else if (n === undefined) {
          b.plain("\\");
          this.pos++;
        } else {
          b.literal(n);
          this.pos += 2;
        }
      } else if (c === "'") {
        const end = this.src.indexOf("'", this.pos + 1);
        if (end < 0) throw new ShellParseError("unterminated single quote");
        b.literal(this.src.slice(this.pos + 1, end));
        this.pos = end + 1;
      } else if (c === '"') {
        this.pos++;
        this.readDouble(b, true);
      } else if (c === "$") {
        this.readDollar(b, false);
      } else if (c === "`") {
        this.readBacktick(b);
      } else {
        b.plain(c);
        this.pos++;
      }
    }
  }

  /** Double-quoted text (after the opening quote), or an unquoted heredoc body when not `terminated`. */
  private readDouble(b: WordBuilder, terminated: boolean): void {
    b.literal("");
    for (;;) {
      const c = this.src[this.pos];
      if (c === undefined) {
        if (terminated) throw new ShellParseError("unterminated double quote");
        return;
      }
      if (terminated && c === '"') {
        this.pos++;
        return;
      }
      if (c === "\\") {
        const n = this.src[this.pos + 1];
        if (n === "\n") {
          this.pos += 2;
        } else if (n !== undefined && '$`"\\'.includes(n)) {
          b.literal(n);
          this.pos += 2;
        } else {
          b.literal("\\");
          this.pos++;
        }
      } else if (c === "$") {
        this.readDollar(b, true);
      } else if (c === "`") {
        this.readBacktick(b);
      } else {
        b.literal(c);
        this.pos++;
      }
    }
  }

  private readDollar(b: WordBuilder, inDouble: boolean): void {
    const start = this.pos;
    const n = this.src[this.pos + 1];
    if (n === "(") {
      if (this.src[this.pos + 2] === "(")
        throw new ShellParseError("arithmetic expansion $(( )) is not supported");
      this.pos += 2;
      this.parseList(")");
      b.expansion(this.src.slice(start, this.pos));
    } else if (n === "[") {
      throw new ShellParseError("arithmetic expansion $[ ] is not supported");
    } else if (n === "{") {
      const end = this.src.indexOf("}", this.pos);
      if (end < 0) throw new ShellParseError("unterminated ${");
      const inner = this.src.slice(this.pos + 2, end);
      if (/[`'"{\\]|\$\(/.test(inner)) {
        throw new ShellParseError(`parameter expansion \${${inner}} is too complex to check`);
      }
      checkParameter(inner);
      b.expansion(this.src.slice(start, end + 1));
      this.pos = end + 1;
    } else if (n === "'" && !inDouble) {
      this.readAnsiC(b);
    } else if (n === '"' && !inDouble) {
      this.pos += 2;
      this.readDouble(b, true);
    } else if (n !== undefined && /[A-Za-z_]/.test(n)) {
      const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(this.src.slice(this.pos + 1))![0];
      b.expansion(`$${name}`);
      this.pos += 1 + name.length;
    } else if (n !== undefined && /[0-9@*#?$!-]/.test(n)) {
      b.expansion(`$${n}`);
      this.pos += 2;
    } else {
      if (inDouble) b.literal("$");
      else b.plain("$");
      this.pos++;
    }
  }

  private readAnsiC(b: WordBuilder): void {
    const { text, end } = decodeAnsiC(this.src, this.pos);
    b.literal(text);
    this.pos = end;
  }

  private readBacktick(b: WordBuilder): void {
    const start = this.pos;
    let i = this.pos + 1;
    let inner = "";
    for (;;) {
      const c = this.src[i];
      if (c === undefined) throw new ShellParseError("unterminated backquote");
      if (c === "`") break;
      const n = this.src[i + 1];
      if (c === "\\" && (n === "$" || n === "`" || n === "\\")) {
        inner += n;
        i += 2;
      } else {
        inner += c;
        i++;
      }
    }
    this.pos = i + 1;
    new Parser(inner, this.out, this.depth + 1).parseAll();
    b.expansion(this.src.slice(start, this.pos));
  }

  private processSubstitution(): ShellWord {
    const start = this.pos;
    this.pos += 2;
    this.parseList(")");
    const b = new WordBuilder();
    b.expansion(this.src.slice(start, this.pos));
    return b.build();
  }

  /** Reads a redirection; its target is a word, not a command (substitutions in it still count). */
  private redirect(): void {
    const op = REDIRECT_OPS.find((o) => this.src.startsWith(o, this.pos));
    if (op === undefined) throw new ShellParseError(`unexpected ${this.src[this.pos]}`);
    this.pos += op.length;
    while (this.src[this.pos] === " " || this.src[this.pos] === "\t") this.pos++;
    const c = this.src[this.pos];
    if (c === undefined || META.has(c)) throw new ShellParseError(`redirection ${op} without a target`);
    const target = this.readWord();
    if (op === "<<" || op === "<<-") {
      this.pending.push({ delimiter: target.text, quoted: target.quoted, stripTabs: op === "<<-" });
      return;
    }
    if (op === "<<<" || op === "<" || op === "<&") return;
    if (op === ">&" && /^(\d+|-)$/.test(target.text)) return;
    if (!HARMLESS_TARGETS.has(target.text)) this.out.writes.push(target.text);
  }

  /** Consumes heredoc bodies after a newline; unquoted bodies may hold substitutions, which count. */
  private readHeredocBodies(): void {
    for (const doc of this.pending.splice(0)) {
      let body = "";
      for (;;) {
        if (this.pos >= this.src.length) {
          throw new ShellParseError(`heredoc <<${doc.delimiter} is not terminated`);
        }
        const found = this.src.indexOf("\n", this.pos);
        const end = found < 0 ? this.src.length : found;
        const line = this.src.slice(this.pos, end);
        this.pos = Math.min(end + 1, this.src.length);
        if ((doc.stripTabs ? line.replace(/^\t+/, "") : line) === doc.delimiter) break;
        body += `${line}\n`;
      }
      if (!doc.quoted) new Parser(body, this.out, this.depth + 1).readDouble(new WordBuilder(), false);
    }
  }
}

/**
 * Finds every simple command a shell command line would run: across `;`, `&&`, `||`, `|`, `&`,
 * newlines, subshells, brace groups, `$()`, backquotes, process substitution, unquoted heredocs and
 * wrappers that run their argument (`bash -c`, `eval`, `env`, `sudo`, `xargs`, `find -exec`, ...).
 * Anything it cannot be sure about (a command name built by expansion, `git -c`, unbalanced quotes,
 * unsupported syntax) is `{ ok: false }`, which the policy treats as "ask".
 */
export function splitShell(command: string): SplitResult {
  if (command.length > MAX_LENGTH) return { ok: false, reason: "command is too long to check" };
  if (command.includes("\0")) return { ok: false, reason: "command contains a NUL byte" };
  const out: Collected = { commands: [], writes: [] };
  try {
    new Parser(command, out, 0).parseAll();
  } catch (error) {
    if (error instanceof ShellParseError) return { ok: false, reason: error.message };
    throw error;
  }
  return {
    ok: true,
    commands: out.commands.map(({ argv }) => argv.map((w) => w.text)),
    texts: out.commands.map(({ argv, prefix }) => [...prefix, ...argv].map(quoteWord).join(" ")),
    writes: out.writes,
  };
}
