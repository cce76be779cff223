import { isAbsolute, resolve } from "node:path";

/**
 * A user hook names a program the user wrote, never a file of the repository. Hooks run in the workspace
 * (a lint or test hook works on it), so a relative path in the command would otherwise name the
 * repository's file: the README's own `command: ./check.sh` ran a hostile repository's `check.sh`, before
 * the gate, even for a call the gate then denied. So, before the command runs, a relative program path
 * (`./check.sh`, `hooks/lint.sh`) and the script an interpreter is given (`python3 check.py`,
 * `bash hooks/x.sh`) resolve against the folder of the config file that declared the hook. A bare
 * program name (`jq`, `npm`) is looked up in PATH as before; absolute paths, `~` and `$VAR` are left alone.
 */

/** Programs whose first operand is a script they run. */
const INTERPRETERS: ReadonlySet<string> = new Set([
  "sh",
  "bash",
  "dash",
  "zsh",
  "python",
  "python3",
  "node",
  "bun",
  "ruby",
  "perl",
  "php",
]);

/** A word the shell passes as written: no quotes, expansions, globs or operators. */
const PLAIN_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** The program and its first operand as plain words, each ended by a blank, a shell operator or the end. */
const LEADING_WORDS =
  /^(\s*)([A-Za-z0-9_@%+=:,./-]+)(?=[\s;&|<>()]|$)(?:([ \t]+)([A-Za-z0-9_@%+=:,./-]+)(?=[\s;&|<>()]|$))?/;

function quote(path: string): string {
  return PLAIN_WORD.test(path) ? path : `'${path.replaceAll("'", "'\\''")}'`;
}

/** A plain relative path; `requireSlash` leaves bare names (looked up in PATH) alone. */
function relativePath(word: string | undefined, requireSlash: boolean): boolean {
  if (word === undefined || !PLAIN_WORD.test(word) || isAbsolute(word) || word.startsWith("-")) return false;
  return !requireSlash || word.includes("/");
}

/** The command with its program (or interpreter's script) resolved against `dir`; unchanged without `dir`. */
export function resolveHookCommand(command: string, dir: string | undefined): string {
  if (dir === undefined) return command;
  const match = LEADING_WORDS.exec(command);
  if (match === null) return command;
  const [whole, indent = "", program = "", gap, operand] = match;
  const rest = command.slice(whole.length);
  if (relativePath(program, true)) {
    return `${indent}${quote(resolve(dir, program))}${gap ?? ""}${operand ?? ""}${rest}`;
  }
  const name = program.slice(program.lastIndexOf("/") + 1);
  if (INTERPRETERS.has(name) && gap !== undefined && operand !== undefined && relativePath(operand, false)) {
    return `${indent}${program}${gap}${quote(resolve(dir, operand))}${rest}`;
  }
  return command;
}
