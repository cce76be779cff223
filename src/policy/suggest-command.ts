import { programOf, riskyOption } from "./programs.ts";
import type { Rule } from "./types.ts";

/**
 * How a person would write an `--allow` rule for one simple command: the program and the words that say
 * what it does, then a glob, instead of the whole command escaped, never wider than what the call runs.
 * `npm run build -- --watch` becomes `exec:npm run build *`, `git status --short` becomes
 * `exec:git status *`, `python3 -m pytest -q` becomes `exec:python3 -m pytest *`, `node greet.js x`
 * becomes `exec:node greet.js *` (the script's path; `node greet.js` alone stays exact). Code given to an interpreter on its command line
 * (`node -e '…'`, `python3 -c '…'`) keeps the exact command: `exec:node -e *` would allow any Node program.
 * Everything else (an unknown program, an option that runs programs or writes files, an expansion, an
 * environment assignment in front, a word that is not plain) keeps the exact command: undefined here.
 */

/** Interpreters whose first option says the next word is code (or a module) to run. */
const CODE_FLAGS: Record<string, readonly string[]> = {
  node: ["-e", "--eval", "-p", "--print"],
  bun: ["-e", "--eval", "-p", "--print"],
  deno: ["eval"],
  python: ["-c", "-m"],
  python3: ["-c", "-m"],
  ruby: ["-e"],
  perl: ["-e", "-E"],
  php: ["-r"],
  lua: ["-e"],
  Rscript: ["-e"],
  osascript: ["-e"],
};

/** Options whose next word names what runs (a module), so it belongs in the rule: `python3 -m pytest *`.
 * The other code flags take the code itself: no glob covers it without covering every program. */
const NAMED_BY_NEXT = new Set(["-m"]);

/** Programs whose first word is a subcommand that says what they do (`git status`, `cargo test`). */
const SUBCOMMAND_PROGRAMS = new Set([
  "git",
  "npm",
  "pnpm",
  "yarn",
  "bun",
  "cargo",
  "go",
  "deno",
  "docker",
  "podman",
  "kubectl",
  "gh",
  "make",
  "pip",
  "pip3",
  "uv",
  "poetry",
  "dotnet",
  "rustup",
  "mvn",
  "gradle",
]);

/** Subcommands that run something named by the next word (`npm run build`, `npx`-like `bun x tsc`). */
const RUNNERS = new Set(["run", "exec", "x", "dlx"]);

/** Package runners whose first word is the package that runs (`npx prettier`). */
const PACKAGE_RUNNERS = new Set(["npx", "bunx", "pnpx"]);

/** A word that reads the same in a rule pattern, in the matched text and in a shell. */
const PLAIN = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** A script's path as an interpreter's first word: a file name with an extension (`greet.js`, `bin/x.py`). */
const SCRIPT = /^[A-Za-z0-9_@%+,./-]*[A-Za-z0-9_-]\.[A-Za-z0-9]+$/;

/** The words a rule for `argv` keeps before its ` *`, or undefined when the exact command is needed. */
function meaningfulPrefix(argv: readonly string[]): string[] | undefined {
  const program = programOf(argv);
  const [head, first, second] = argv;
  if (head === undefined || first === undefined) return undefined;
  const flags = CODE_FLAGS[program];
  if (flags?.includes(first)) {
    if (!NAMED_BY_NEXT.has(first)) return undefined;
    return second === undefined || second.startsWith("-") ? undefined : [head, first, second];
  }
  // An interpreter given a script and arguments: the script's path says what runs (`node greet.js *`);
  // a script alone keeps the exact command, which is narrower.
  if (flags !== undefined && !SUBCOMMAND_PROGRAMS.has(program))
    return first.startsWith("-") || !SCRIPT.test(first) || argv.length < 3 ? undefined : [head, first];
  if (PACKAGE_RUNNERS.has(program)) return first.startsWith("-") ? undefined : [head, first];
  if (!SUBCOMMAND_PROGRAMS.has(program) || first.startsWith("-")) return undefined;
  if (RUNNERS.has(first) && second !== undefined && !second.startsWith("-")) return [head, first, second];
  return [head, first];
}

/** The literal head of a glob pattern: up to its first glob character. */
function literalHead(pattern: string): string {
  const at = pattern.search(/[*?[\\{]/);
  return at < 0 ? pattern : pattern.slice(0, at);
}

/**
 * Whether an exec deny or ask rule speaks about commands the prefix would cover (`deny exec:git push *`
 * against `git *`, `ask exec:npm run deploy` against `npm run *`): then a glob would claim more than
 * the user's own rules let through, and the exact command is suggested.
 */
function overlapsRestriction(prefix: string, rules: readonly Rule[]): boolean {
  return rules.some((rule) => {
    if (rule.tool !== "exec" || rule.effect === "allow" || rule.pattern === undefined) return false;
    const head = literalHead(rule.pattern);
    return head.startsWith(prefix) || prefix.startsWith(head.trimEnd());
  });
}

/**
 * The readable `exec:` rule for one simple command (`text` as the splitter renders it, `argv` its
 * words), or undefined when only the exact command will do. Never broader than the user's rules permit:
 * an option that runs programs or writes files keeps the exact command (an allow rule must name it), an
 * interpreter's module or script is generalized only while no exec deny rule exists (code can run any
 * program, which a deny rule could no longer see), and a prefix that a deny or ask rule speaks about is
 * kept exact.
 */
export function suggestRule(
  text: string,
  argv: readonly string[],
  rules: readonly Rule[],
): string | undefined {
  if (riskyOption(argv) !== undefined || argv.some((word) => /^[$`]/.test(word))) return undefined;
  const words = meaningfulPrefix(argv);
  if (words === undefined || !words.every((word) => PLAIN.test(word))) return undefined;
  const prefix = words.join(" ");
  // An environment assignment or a re-quoted program in front: the rule must match the whole text.
  if (text !== prefix && !text.startsWith(`${prefix} `)) return undefined;
  if (overlapsRestriction(prefix, rules)) return undefined;
  const program = programOf(argv);
  const code = CODE_FLAGS[program] !== undefined && !SUBCOMMAND_PROGRAMS.has(program);
  if (code && rules.some((rule) => rule.tool === "exec" && rule.effect === "deny")) return undefined;
  return `exec:${prefix} *`;
}
