/**
 * What the policy knows about programs, as data: options that make an otherwise harmless program run
 * other programs or write files (an allow rule does not cover them unless it names the option), and
 * programs that never run their arguments as a command (the only ones whose arguments deny rules do not
 * search for a denied command).
 */

interface RiskySpec {
  /** Risky wherever they appear before `--`. */
  options: string[];
  /** Risky only before the subcommand (`git -c x=y status`). */
  global?: string[];
  /** Global options that take the next word as their value, to find the subcommand. */
  globalValues?: string[];
  /** Risky after a given subcommand (`git fetch -u`, `git submodule foreach`). */
  subcommands?: Record<string, string[]>;
}

/**
 * Options that run a program or write a file. Long options also match their abbreviations (git and GNU
 * getopt_long accept any unambiguous prefix: `--upload-pa` is `--upload-pack`; git's api-parse-options.txt
 * "Long options may be abbreviated, as long as the abbreviation is unambiguous", glibc getopt.texi).
 * Sources: git-fetch(1)/git-clone(1)/git-ls-remote(1) `--upload-pack`, git-grep(1) `-O`,
 * git-archive(1) `--exec`/`--remote`/`--output`, git(1) `-c`/`--config-env`/`--exec-path`/`-C`;
 * Codex codex-rs/shell-command/src/command_safety/is_safe_command.rs (find `-exec`/`-delete`/`-fprint*`,
 * rg `--pre`/`--hostname-bin`/`-z`, base64 `-o`); GNU sort(1) `--compress-program`, tar(1)
 * `--to-command`/`-I`/`--checkpoint-action`.
 */
const RISKY: Record<string, RiskySpec> = {
  git: {
    options: [
      "--upload-pack",
      "--receive-pack",
      "--exec",
      "--output",
      "--output-directory",
      "--open-files-in-pager",
      "--ext-diff",
      "--extcmd",
      "--template",
      "--separate-git-dir",
      "--remote",
      "--config",
      "--config-env",
      "--exec-path",
      "--git-dir",
      "--work-tree",
    ],
    global: ["-c", "-C"],
    globalValues: ["-c", "-C", "--git-dir", "--work-tree", "--namespace", "--super-prefix"],
    subcommands: {
      fetch: ["-u"],
      pull: ["-u"],
      clone: ["-u", "-c"],
      "ls-remote": ["-u"],
      grep: ["-O"],
      archive: ["-o"],
      "format-patch": ["-o"],
      rebase: ["-x"],
      difftool: ["-x", "-t", "--tool"],
      mergetool: ["-t", "--tool"],
      submodule: ["foreach"],
      bisect: ["run"],
    },
  },
  find: {
    options: ["-exec", "-execdir", "-ok", "-okdir", "-delete", "-fls", "-fprint", "-fprint0", "-fprintf"],
  },
  rg: { options: ["--pre", "--hostname-bin", "--search-zip", "-z"] },
  base64: { options: ["-o", "--output"] },
  sort: { options: ["-o", "--output", "--compress-program"] },
  sed: { options: ["-i", "--in-place"] },
  tar: {
    options: [
      "--to-command",
      "--use-compress-program",
      "-I",
      "--checkpoint-action",
      "--info-script",
      "--new-volume-script",
      "-F",
      "--rsh-command",
    ],
  },
  rsync: { options: ["-e", "--rsh", "--rsync-path"] },
  curl: { options: ["-o", "--output", "-O", "--remote-name", "-K", "--config"] },
  wget: { options: ["-O", "--output-document", "-e", "--execute"] },
  man: { options: ["-P", "--pager", "-H", "--html"] },
};

/** Programs that never run a word of their arguments as a command (their risky options aside). */
export const NON_EXECUTING: ReadonlySet<string> = new Set([
  "cat",
  "echo",
  "printf",
  "ls",
  "pwd",
  "grep",
  "egrep",
  "fgrep",
  "head",
  "tail",
  "wc",
  "sort",
  "uniq",
  "cut",
  "tr",
  "diff",
  "cmp",
  "stat",
  "file",
  "basename",
  "dirname",
  "realpath",
  "readlink",
  "mkdir",
  "rmdir",
  "touch",
  "cp",
  "mv",
  "rm",
  "ln",
  "chmod",
  "true",
  "false",
  "git",
  "cd",
  "export",
  "set",
  "test",
  "[",
  "exit",
  "sleep",
  "date",
  "which",
  "tee",
]);

/** The program name of an argv: its first word without a directory. */
export function programOf(argv: readonly string[]): string {
  const head = argv[0] ?? "";
  return head.slice(head.lastIndexOf("/") + 1);
}

/**
 * The argv without the options a program takes before its subcommand (`git -C dir -c k=v push` is
 * `git push`), so deny and ask rules written for the subcommand see it; the argv itself otherwise.
 */
export function withoutGlobalOptions(argv: readonly string[]): string[] {
  const spec = RISKY[programOf(argv)];
  if (spec?.globalValues === undefined) return [...argv];
  let at = 1;
  while (at < argv.length && argv[at]!.startsWith("-") && argv[at] !== "--") {
    at += spec.globalValues.includes(argv[at]!) ? 2 : 1;
  }
  return [argv[0]!, ...argv.slice(at)];
}

/** Whether `word` spells `option`: exactly, abbreviated (`--upload-pa`), with `=value`, or in a short cluster. */
function spells(word: string, option: string): boolean {
  if (!option.startsWith("-")) return word === option;
  if (option.startsWith("--")) {
    if (!word.startsWith("--")) return false;
    const name = word.split("=", 1)[0]!;
    return name.length > 2 && option.startsWith(name);
  }
  if (option.length > 2) return word === option;
  if (word.startsWith("--") || !word.startsWith("-")) return false;
  return word.startsWith(option) || (/^-[A-Za-z0-9]+$/.test(word) && word.includes(option[1]!));
}

function found(words: readonly string[], options: readonly string[]): string | undefined {
  for (const word of words) {
    const option = options.find((o) => spells(word, o));
    if (option !== undefined) return option;
  }
  return undefined;
}

/**
 * The first option of `argv` that makes its program run another program or write a file
 * (`git fetch --upload-pack=x`, `git -c core.pager=sh log`, `find . -delete`), or a word starting with an
 * expansion that could become one, or undefined. Words after `--` are operands, not options.
 */
export function riskyOption(argv: readonly string[]): string | undefined {
  const spec = RISKY[programOf(argv)];
  if (spec === undefined) return undefined;
  const end = argv.indexOf("--");
  const words = argv.slice(1, end < 0 ? argv.length : end);
  // `rg $OPTS x`: an expansion may become any option, `--pre=sh` included.
  const expanded = words.find((w) => /^[$`]/.test(w));
  if (expanded !== undefined) return expanded;
  const direct = found(words, spec.options);
  if (direct !== undefined) return direct;
  let at = 0;
  while (at < words.length && words[at]!.startsWith("-")) {
    at += spec.globalValues?.includes(words[at]!) ? 2 : 1;
  }
  const global = found(words.slice(0, at), spec.global ?? []);
  if (global !== undefined) return global;
  const sub = words[at];
  const subOptions = sub === undefined ? undefined : spec.subcommands?.[sub];
  return subOptions === undefined ? undefined : found(words.slice(at + 1), subOptions);
}
