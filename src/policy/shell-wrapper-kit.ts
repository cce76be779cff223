/**
 * The parts shell wrappers are built from: what unwrapping one yields, how its options are skipped, and
 * the three shapes of wrapper (transparent, guarded, running a `-c` script).
 */
import { checkAssignment, ShellParseError, type ShellWord } from "./shell-word.ts";

export interface Unwrapped {
  /** The wrapper itself must be allowed too (it changes privileges or adds arguments). */
  reportSelf: boolean;
  inner: ShellWord[][];
  scripts: string[];
  /** Environment changes the wrapper makes for the inner commands (`env -i X=1 ...`). */
  prefix?: ShellWord[];
}

export interface OptionSpec {
  flags?: string[];
  /** Options that take a value: `-u root`, `-uroot`, `--user=root`. */
  withValue?: string[];
  /** Options whose value may only be attached: `-i{}`. */
  attached?: string[];
  numeric?: boolean;
}

export interface WrapperSpec {
  /** Every argument must be a plain word: an expansion could smuggle in options or a command. */
  strict: boolean;
  unwrap(name: string, args: ShellWord[]): Unwrapped;
}

export const ENV_OPTIONS: OptionSpec = {
  flags: ["-i", "--ignore-environment", "-0", "--null", "-v", "--debug", "-"],
  withValue: ["-u", "--unset", "-C", "--chdir"],
};

export function plainWord(text: string): ShellWord {
  return { text, quoted: false, expands: false, assignment: false };
}

export function none(): Unwrapped {
  return { reportSelf: false, inner: [], scripts: [] };
}

/** Index of the first argument after the options `spec` describes; throws on an unknown option. */
export function skipOptions(name: string, args: ShellWord[], spec: OptionSpec): number {
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
export function transparent(
  spec: OptionSpec,
  after?: (args: ShellWord[], at: number) => number,
): WrapperSpec {
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
export function guarded(spec: OptionSpec, operands = 0, pidFlags: string[] = []): WrapperSpec {
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
export function scriptOption(spec: OptionSpec, refuse: string[] = []): WrapperSpec {
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

export function skipAssignments(args: ShellWord[], at: number): number {
  let i = at;
  while (args[i]?.assignment) checkAssignment(args[i++]!);
  return i;
}
