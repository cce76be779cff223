import { checkAssignment, ShellParseError, type ShellWord } from "./shell-word.ts";

/** Where unwrapping sends what it finds. */
export interface CommandSink {
  /** A simple command that must be allowed on its own, with the assignments it runs under. */
  command(argv: ShellWord[], prefix: ShellWord[]): void;
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
  /** Environment changes the wrapper makes for the inner commands (`env -i X=1 ...`). */
  prefix?: ShellWord[];
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

const ENV_OPTIONS: OptionSpec = {
  flags: ["-i", "--ignore-environment", "-0", "--null", "-v", "--debug", "-"],
  withValue: ["-u", "--unset", "-C", "--chdir"],
};

function plainWord(text: string): ShellWord {
  return { text, quoted: false, expands: false, assignment: false };
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

/**
 * A wrapper that must be allowed itself and whose command must be allowed too. `operands` words come
 * between the options and the command (`chrt 10 cmd`, `taskset 0x3 cmd`, `flock FILE cmd`); with one of
 * `pidFlags` it acts on a running process and runs no command.
 */
function guarded(spec: OptionSpec, operands = 0, pidFlags: string[] = []): WrapperSpec {
  return {
    strict: true,
    unwrap(name, args) {
      const options = skipOptions(name, args, { ...spec, flags: [...(spec.flags ?? []), ...pidFlags] });
      if (args.slice(0, options).some((w) => pidFlags.includes(w.text)))
        return { ...none(), reportSelf: true };
      const at = skipAssignments(args, options + operands);
      const inner = args.slice(at);
      return { reportSelf: true, inner: inner.length > 0 ? [inner] : [], scripts: [] };
    },
  };
}

/** A wrapper that runs a script given with `-c`/`--command` (`su -c`, `script -c`, `flock FILE -c`). */
function scriptOption(spec: OptionSpec, refuse: string[] = []): WrapperSpec {
  return {
    strict: true,
    unwrap(name, args) {
      const scripts: string[] = [];
      for (let i = 0; i < args.length; i++) {
        const t = args[i]!.text;
        if (refuse.some((r) => t === r || t.startsWith(`${r}=`) || (r.length === 2 && t.startsWith(r)))) {
          throw new ShellParseError(`${name} ${t} chooses the program that runs`);
        }
        if (t.startsWith("--command=")) scripts.push(t.slice("--command=".length));
        else if (t === "--command" || /^-[A-Za-z]*c$/.test(t)) {
          const script = args[++i];
          if (script === undefined) throw new ShellParseError(`${name} ${t} without a command`);
          scripts.push(script.text);
        }
      }
      // Options are only checked for being understood when no script is found (a login shell, a lock).
      if (scripts.length === 0) skipOptions(name, args, spec);
      return { reportSelf: true, inner: [], scripts };
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
      // Options that run programs (-c, --exec-path, ...) are for programs.ts: allow rules skip them.
      i += ["-c", "-C", "--git-dir", "--work-tree", "--namespace"].includes(t) ? 2 : 1;
    }
    if (args[i]?.expands)
      throw new ShellParseError(`git subcommand ${args[i]!.text} is expanded by the shell`);
    return { ...none(), reportSelf: true };
  },
};

const WRAPPERS: Record<string, WrapperSpec> = {
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
  ionice: guarded({ flags: ["-t"], withValue: ["-c", "-n", "--class", "--classdata"] }, 0, [
    "-p",
    "-P",
    "-u",
  ]),
  flock: {
    strict: true,
    unwrap(name, args) {
      const spec: OptionSpec = {
        flags: [
          "-s",
          "--shared",
          "-x",
          "-e",
          "--exclusive",
          "-u",
          "--unlock",
          "-n",
          "--nb",
          "--nonblock",
        ].concat(["-o", "--close", "-F", "--no-fork", "--verbose"]),
        withValue: ["-w", "--wait", "--timeout", "-E", "--conflict-exit-code"],
      };
      const at = skipOptions(name, args, spec) + 1;
      const next = args[at]?.text;
      if (next === "-c" || next === "--command") return scriptOption({}).unwrap(name, args.slice(at));
      const inner = args.slice(at);
      return { reportSelf: true, inner: inner.length > 0 ? [inner] : [], scripts: [] };
    },
  },
  chrt: guarded(
    {
      flags: ["-a", "--all-tasks", "-b", "--batch", "-d", "--deadline", "-e", "--ext", "-f", "--fifo"].concat(
        ["-i", "--idle", "-o", "--other", "-r", "--rr", "-R", "--reset-on-fork", "-v", "--verbose"],
      ),
      withValue: ["-T", "--sched-runtime", "-P", "--sched-period", "-D", "--sched-deadline"],
    },
    1,
    ["-p", "--pid", "-m", "--max"],
  ),
  taskset: guarded({ flags: ["-a", "--all-tasks", "-c", "--cpu-list"] }, 1, ["-p", "--pid"]),
  setpriv: guarded({
    flags: [
      "-d",
      "--dump",
      "--nnp",
      "--no-new-privs",
      "--keep-groups",
      "--clear-groups",
      "--init-groups",
    ].concat(["--reset-env"]),
    withValue: ["--reuid", "--regid", "--ruid", "--rgid", "--euid", "--egid", "--groups", "--inh-caps"]
      .concat(["--ambient-caps", "--bounding-set", "--securebits", "--pdeathsig", "--selinux-label"])
      .concat(["--apparmor-profile", "--landlock-access", "--landlock-rule"]),
  }),
  unshare: guarded({
    flags: ["-m", "--mount", "-u", "--uts", "-i", "--ipc", "-n", "--net", "-p", "--pid", "-U", "--user"]
      .concat(["-C", "--cgroup", "-T", "--time", "-f", "--fork", "-r", "--map-root-user", "-c"])
      .concat(["--map-current-user", "--mount-proc", "--kill-child", "--keep-caps"]),
    withValue: ["-S", "--setuid", "-G", "--setgid", "-R", "--root", "-w", "--wd", "--propagation"].concat([
      "--setgroups",
      "--map-user",
      "--map-group",
      "--map-users",
      "--map-groups",
    ]),
  }),
  strace: guarded(
    {
      flags: [
        "-f",
        "-ff",
        "-c",
        "-C",
        "-w",
        "-d",
        "-D",
        "-DD",
        "-F",
        "-i",
        "-k",
        "-n",
        "-q",
        "-qq",
        "-r",
      ].concat(["-t", "-tt", "-ttt", "-T", "-v", "-x", "-xx", "-y", "-yy", "-Z", "-z"]),
      withValue: ["-e", "-o", "-s", "-u", "-a", "-b", "-I", "-O", "-S", "-P", "-E", "-X"],
    },
    0,
    ["-p"],
  ),
  script: scriptOption({ flags: ["-a", "-e", "-f", "-q", "--append", "--return", "--flush", "--quiet"] }),
  su: scriptOption({ flags: ["-", "-l", "--login", "-m", "-p", "--preserve-environment", "-P", "--pty"] }, [
    "-s",
    "--shell",
    "--session-command",
  ]),
  watch: {
    strict: true,
    unwrap(name, args) {
      const spec: OptionSpec = {
        flags: ["-b", "--beep", "-c", "--color", "-C", "--no-color", "-d", "--differences", "-e"]
          .concat(["--errexit", "-g", "--chgexit", "-t", "--no-title", "-x", "--exec", "-p", "--precise"])
          .concat(["-r", "--no-rerun", "-w", "--no-wrap"]),
        withValue: ["-n", "--interval", "-q", "--equexit"],
      };
      const at = skipOptions(name, args, spec);
      const inner = args.slice(at);
      const exec = args.slice(0, at).some((w) => w.text === "-x" || w.text === "--exec");
      // Without -x, watch joins its arguments and runs them with `sh -c`.
      if (exec) return { reportSelf: true, inner: inner.length > 0 ? [inner] : [], scripts: [] };
      return {
        reportSelf: true,
        inner: [],
        scripts: inner.length > 0 ? [inner.map((w) => w.text).join(" ")] : [],
      };
    },
  },
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
