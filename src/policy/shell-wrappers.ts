import { ShellParseError, type ShellWord } from "./shell-word.ts";
import {
  ENV_OPTIONS,
  guarded,
  none,
  plainWord,
  skipAssignments,
  skipOptions,
  transparent,
  type WrapperSpec,
} from "./shell-wrapper-kit.ts";
import { SYSTEM_WRAPPERS } from "./shell-wrappers-system.ts";

/** Where unwrapping sends what it finds. */
export interface CommandSink {
  /** A simple command that must be allowed on its own, with the assignments it runs under. */
  command(argv: ShellWord[], prefix: ShellWord[]): void;
  /** A script a wrapper runs (`bash -c`, `eval`): split and checked like top-level input. */
  script(source: string, depth: number): void;
}

/** How deep wrappers and nested scripts may go before the command counts as unparsable. */
export const MAX_SHELL_DEPTH = 16;

const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish"]);

const shell: WrapperSpec = {
  strict: true,
  unwrap(name, args) {
    let i = 0;
    let hasC = false;
    while (i < args.length) {
      const t = args[i]!.text;
      if (t === "--" || t === "-") {
        i++;
        break;
      }
      if (!/^[-+]./.test(t)) break;
      if (t.startsWith("--")) {
        i += t === "--rcfile" || t === "--init-file" ? 2 : 1;
        continue;
      }
      const letters = t.slice(1);
      if (letters.includes("c")) hasC = true;
      i += letters.includes("o") || letters.includes("O") ? 2 : 1;
    }
    if (!hasC) return { ...none(), reportSelf: true };
    const script = args[i];
    if (script === undefined) throw new ShellParseError(`${name} -c without a script`);
    return { ...none(), scripts: [script.text] };
  },
};

const find: WrapperSpec = {
  strict: true,
  unwrap(_name, args) {
    const inner: ShellWord[][] = [];
    for (let i = 0; i < args.length; i++) {
      if (!["-exec", "-execdir", "-ok", "-okdir"].includes(args[i]!.text)) continue;
      const end = args.findIndex((w, j) => j > i && (w.text === ";" || w.text === "+"));
      if (end < 0) throw new ShellParseError(`find ${args[i]!.text} without a terminating ';' or '+'`);
      inner.push(args.slice(i + 1, end));
      i = end;
    }
    return { reportSelf: true, inner, scripts: [] };
  },
};

const git: WrapperSpec = {
  strict: false,
  unwrap(_name, args) {
    let i = 0;
    while (i < args.length) {
      const word = args[i]!;
      if (word.expands) throw new ShellParseError(`git option ${word.text} is expanded by the shell`);
      const t = word.text;
      if (!t.startsWith("-")) break;
      // Options that run programs (-c, --exec-path, ...) are for programs.ts: allow rules skip them.
      i += ["-c", "-C", "--git-dir", "--work-tree", "--namespace"].includes(t) ? 2 : 1;
    }
    if (args[i]?.expands)
      throw new ShellParseError(`git subcommand ${args[i]!.text} is expanded by the shell`);
    return { ...none(), reportSelf: true };
  },
};

const WRAPPERS: Record<string, WrapperSpec> = {
  ...SYSTEM_WRAPPERS,
  env: {
    strict: true,
    unwrap(name, args) {
      const at = skipAssignments(args, skipOptions(name, args, ENV_OPTIONS));
      const inner = args.slice(at);
      if (inner.length === 0) return { ...none(), reportSelf: true };
      const changes = args.slice(0, at).filter((w) => w.text !== "--");
      return { ...none(), inner: [inner], prefix: changes.length > 0 ? [plainWord(name), ...changes] : [] };
    },
  },
  nohup: transparent({}),
  time: transparent({
    flags: ["-p", "-a", "-v", "-q", "--append", "--verbose", "--quiet", "--portability"],
    withValue: ["-f", "-o", "--format", "--output"],
  }),
  busybox: transparent({}),
  nice: transparent({ withValue: ["-n", "--adjustment"], numeric: true }),
  timeout: transparent(
    {
      flags: ["--preserve-status", "--foreground", "-v", "--verbose"],
      withValue: ["-s", "--signal", "-k", "--kill-after"],
    },
    (args, at) => {
      if (args[at] === undefined) throw new ShellParseError("timeout without a duration");
      return at + 1;
    },
  ),
  builtin: transparent({}),
  exec: {
    strict: true,
    unwrap(name, args) {
      const inner = args.slice(skipOptions(name, args, { flags: ["-c", "-l"], withValue: ["-a"] }));
      return { ...none(), inner: inner.length > 0 ? [inner] : [] };
    },
  },
  command: {
    strict: true,
    unwrap(name, args) {
      if (args.some((w) => w.text === "-v" || w.text === "-V")) return { ...none(), reportSelf: true };
      const inner = args.slice(skipOptions(name, args, { flags: ["-p"] }));
      return inner.length === 0 ? { ...none(), reportSelf: true } : { ...none(), inner: [inner] };
    },
  },
  eval: {
    strict: true,
    unwrap(_name, args) {
      return { ...none(), scripts: args.length > 0 ? [args.map((w) => w.text).join(" ")] : [] };
    },
  },
  xargs: guarded({
    flags: ["-0", "--null", "-r", "--no-run-if-empty", "-t", "--verbose", "-p", "--interactive", "-x", "-o"],
    withValue: ["-I", "-n", "-P", "-L", "-s", "-d", "-E", "-a", "--max-args", "--max-procs", "--delimiter"],
    attached: ["-i", "-l", "-e"],
  }),
  trap: {
    strict: true,
    unwrap(_name, args) {
      const action = args[0];
      const runs = action !== undefined && args.length > 1 && !action.text.startsWith("-");
      return { reportSelf: true, inner: [], scripts: runs ? [action.text] : [] };
    },
  },
  find,
  git,
};

/**
 * Checks one simple command (argv after assignments and reserved words are stripped) and sends it,
 * and every command a wrapper in it would run, to `sink`. Throws ShellParseError when unsure.
 */
export function unwrapCommand(
  argv: ShellWord[],
  sink: CommandSink,
  depth = 0,
  prefix: ShellWord[] = [],
): void {
  if (depth > MAX_SHELL_DEPTH) throw new ShellParseError("commands nested too deeply");
  const head = argv[0];
  if (head === undefined) return;
  if (head.expands) throw new ShellParseError(`command name ${head.text} is expanded by the shell`);
  const name = head.text.slice(head.text.lastIndexOf("/") + 1);
  const spec = SHELLS.has(name) ? shell : Object.hasOwn(WRAPPERS, name) ? WRAPPERS[name] : undefined;
  if (spec === undefined) {
    sink.command(argv, prefix);
    return;
  }
  const args = argv.slice(1);
  if (spec.strict) {
    const expanded = args.find((w) => w.expands);
    if (expanded) throw new ShellParseError(`${name} argument ${expanded.text} is expanded by the shell`);
  }
  const result = spec.unwrap(name, args);
  if (result.reportSelf) sink.command(argv, prefix);
  const innerPrefix = [...prefix, ...(result.prefix ?? [])];
  for (const inner of result.inner) unwrapCommand(inner, sink, depth + 1, innerPrefix);
  for (const script of result.scripts) sink.script(script, depth + 1);
}
