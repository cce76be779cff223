import { checkAssignment, ShellParseError, type ShellWord } from "./shell-word.ts";

/** Where unwrapping sends what it finds. */
export interface CommandSink {
  /** A simple command that must be allowed on its own. */
  command(argv: ShellWord[]): void;
  /** A script a wrapper runs (`bash -c`, `eval`): split and checked like top-level input. */
  script(source: string, depth: number): void;
}

/** How deep wrappers and nested scripts may go before the command counts as unparsable. */
export const MAX_SHELL_DEPTH = 16;

interface Unwrapped {
  /** The wrapper itself must be allowed too (it changes privileges or adds arguments). */
  reportSelf: boolean;
  inner: ShellWord[][];
  scripts: string[];
}

interface OptionSpec {
  flags?: string[];
  /** Options that take a value: `-u root`, `-uroot`, `--user=root`. */
  withValue?: string[];
  /** Options whose value may only be attached: `-i{}`. */
  attached?: string[];
  numeric?: boolean;
}

interface WrapperSpec {
  /** Every argument must be a plain word: an expansion could smuggle in options or a command. */
  strict: boolean;
  unwrap(name: string, args: ShellWord[]): Unwrapped;
}

const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish"]);

function none(): Unwrapped {
  return { reportSelf: false, inner: [], scripts: [] };
}

/** Index of the first argument after the options `spec` describes; throws on an unknown option. */
function skipOptions(name: string, args: ShellWord[], spec: OptionSpec): number {
  let i = 0;
  while (i < args.length) {
    const t = args[i]!.text;
    if (t === "--") return i + 1;
    if (spec.flags?.includes(t)) {
      i++;
      continue;
    }
    if (!t.startsWith("-") || t === "-") break;
    if (spec.numeric && /^-\d+$/.test(t)) {
      i++;
      continue;
    }
    if (spec.withValue?.includes(t)) {
      if (i + 1 >= args.length) throw new ShellParseError(`${name}: option ${t} needs a value`);
      i += 2;
      continue;
    }
    const eq = t.indexOf("=");
    if (t.startsWith("--") && eq > 0 && spec.withValue?.includes(t.slice(0, eq))) {
      i++;
      continue;
    }
    const short = t.slice(0, 2);
    if (!t.startsWith("--") && (spec.withValue?.includes(short) || spec.attached?.includes(short))) {
      i++;
      continue;
    }
    throw new ShellParseError(`${name}: option ${t} is not understood`);
  }
  return i;
}

/** A transparent wrapper: only the command it runs is checked. */
function transparent(spec: OptionSpec, after?: (args: ShellWord[], at: number) => number): WrapperSpec {
  return {
    strict: true,
    unwrap(name, args) {
      let at = skipOptions(name, args, spec);
      if (after) at = after(args, at);
      const inner = args.slice(at);
      return inner.length === 0 ? { ...none(), reportSelf: true } : { ...none(), inner: [inner] };
    },
  };
}

/** A wrapper that must be allowed itself and whose command must be allowed too. */
function guarded(spec: OptionSpec): WrapperSpec {
  return {
    strict: true,
    unwrap(name, args) {
      const at = skipAssignments(args, skipOptions(name, args, spec));
      const inner = args.slice(at);
      return { reportSelf: true, inner: inner.length > 0 ? [inner] : [], scripts: [] };
    },
  };
}

function skipAssignments(args: ShellWord[], at: number): number {
  let i = at;
  while (args[i]?.assignment) checkAssignment(args[i++]!);
  return i;
}

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
      if (t === "-c" || t.startsWith("--config-env") || t.startsWith("--exec-path")) {
        throw new ShellParseError(`git ${t} can run arbitrary commands (core.pager, aliases, hooks)`);
      }
      i += ["-C", "--git-dir", "--work-tree", "--namespace"].includes(t) ? 2 : 1;
    }
    if (args[i]?.expands)
      throw new ShellParseError(`git subcommand ${args[i]!.text} is expanded by the shell`);
    return { ...none(), reportSelf: true };
  },
};

const WRAPPERS: Record<string, WrapperSpec> = {
  env: transparent(
    {
      flags: ["-i", "--ignore-environment", "-0", "--null", "-v", "--debug", "-"],
      withValue: ["-u", "--unset", "-C", "--chdir"],
    },
    skipAssignments,
  ),
  nohup: transparent({}),
  time: transparent({ flags: ["-p"] }),
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
  sudo: guarded({
    flags: ["-A", "-B", "-E", "-H", "-K", "-P", "-S", "-b", "-e", "-i", "-k", "-l", "-n", "-s", "-v"],
    withValue: ["-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-T", "-U", "--user", "--group", "--chdir"],
  }),
  doas: guarded({ flags: ["-n", "-s", "-L"], withValue: ["-u", "-C"] }),
  xargs: guarded({
    flags: ["-0", "--null", "-r", "--no-run-if-empty", "-t", "--verbose", "-p", "--interactive", "-x", "-o"],
    withValue: ["-I", "-n", "-P", "-L", "-s", "-d", "-E", "-a", "--max-args", "--max-procs", "--delimiter"],
    attached: ["-i", "-l", "-e"],
  }),
  setsid: guarded({ flags: ["-f", "-w", "-c", "--fork", "--wait", "--ctty"] }),
  stdbuf: guarded({ withValue: ["-i", "-o", "-e", "--input", "--output", "--error"] }),
  unbuffer: guarded({ flags: ["-p"] }),
  ionice: guarded({ flags: ["-t"], withValue: ["-c", "-n", "--class", "--classdata"] }),
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
export function unwrapCommand(argv: ShellWord[], sink: CommandSink, depth = 0): void {
  if (depth > MAX_SHELL_DEPTH) throw new ShellParseError("commands nested too deeply");
  const head = argv[0];
  if (head === undefined) return;
  if (head.expands) throw new ShellParseError(`command name ${head.text} is expanded by the shell`);
  const name = head.text.slice(head.text.lastIndexOf("/") + 1);
  const spec = SHELLS.has(name) ? shell : Object.hasOwn(WRAPPERS, name) ? WRAPPERS[name] : undefined;
  if (spec === undefined) {
    sink.command(argv);
    return;
  }
  const args = argv.slice(1);
  if (spec.strict) {
    const expanded = args.find((w) => w.expands);
    if (expanded) throw new ShellParseError(`${name} argument ${expanded.text} is expanded by the shell`);
  }
  const result = spec.unwrap(name, args);
  if (result.reportSelf) sink.command(argv);
  for (const inner of result.inner) unwrapCommand(inner, sink, depth + 1);
  for (const script of result.scripts) sink.script(script, depth + 1);
}
