/** The benchmarks' command-line options, read from process.argv: `--name VALUE`, as each bench's header lists. */

/** The value after `name`, or undefined when it is not given. */
export function option(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** Every value given for a repeatable option (`--baseline A --baseline B`). */
export function options(name: string): string[] {
  return process.argv.flatMap((arg, i) =>
    arg === name && i + 1 < process.argv.length ? [process.argv[i + 1]!] : [],
  );
}

/** The option as a number above 0, else `fallback`. */
export function positiveNumber(name: string, fallback: number): number {
  const value = Number(option(name) ?? Number.NaN);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

/** The option as a whole number above 0, else `fallback`. */
export function positiveInteger(name: string, fallback: number): number {
  const value = Number(option(name));
  return Number.isInteger(value) && value > 0 ? value : fallback;
}
