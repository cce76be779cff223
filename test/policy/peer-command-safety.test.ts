// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are shell commands, not templates
/**
 * Command-safety cases ported from a peer, run against our policy.
 *
 * Origin: openai/codex (Apache License 2.0, https://github.com/openai/codex/blob/main/LICENSE),
 *   - codex-rs/shell-command/src/command_safety/is_safe_command.rs, tests module, at commit
 *     226bd153410084774ffcf7aff9f22930e417f420 (known_safe_examples, git_commands_require_approval,
 *     cargo_check_is_not_safe, zsh_lc_safe_command_sequence, unknown_or_partial,
 *     base64_output_options_are_unsafe, ripgrep_rules, bash_lc_safe_examples,
 *     bash_lc_safe_examples_with_operators, bash_lc_unsafe_examples);
 *   - codex-rs/shell-command/src/bash.rs, tests module, at commit 47d6e2f86f9867f8b5089c6aeee0d50942102537
 *     (parse_plain_shell_script and parse_shell_lc_single_command_prefix cases).
 * Only the inputs and expectations were taken (as data, rewritten here); no code was copied.
 *
 * How their semantics map onto ours: Codex has a fixed list of "known safe" programs; we have allow
 * rules. Each case runs with CODEX_SAFE, allow rules naming the programs Codex calls safe, plus our
 * defaults, and expects "allow" where Codex says safe and "ask" where it says approval is needed.
 * Where our answer differs on purpose, the row says why (`differs:`): our splitter follows subshells,
 * `&`, substitutions and expansions in arguments and checks every command they run, where Codex's
 * plain-command parser rejects them; and a glob rule says exactly what it allows.
 */
import { describe, expect, test } from "bun:test";
import { evaluate } from "../../src/policy/evaluate.ts";
import { buildRuleSet } from "../../src/policy/rules.ts";
import { splitShell } from "../../src/policy/shell-split.ts";
import type { Effect } from "../../src/policy/types.ts";

/** The programs Codex's is_safe_to_call_with_exec accepts, as our allow rules. */
const CODEX_SAFE = [
  ...["cat", "cd", "cut", "echo", "expr", "false", "grep", "head", "id", "ls", "nl", "paste", "pwd", "rev"],
  ...["seq", "stat", "tail", "tr", "true", "uname", "uniq", "wc", "which", "whoami", "numfmt", "tac"],
  ...["base64", "find", "rg"],
].map((p) => `exec:${p} *`);
const RULES = buildRuleSet({ user: { allow: [...CODEX_SAFE, "exec:sed -n *"] } });

/** [argv as Codex passes it, our expected effect, note]. A one-word argv is a whole script. */
type Case = [string[], Effect, string?];

/** argv to the command line our exec tool receives (it runs `bash -c <command>`). */
function commandLine(argv: string[]): string {
  return argv
    .map((w) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(w) ? w : `'${w.replaceAll("'", "'\\''")}'`))
    .join(" ");
}

const IS_SAFE_COMMAND: Case[] = [
  // known_safe_examples
  [["ls"], "allow"],
  [["base64"], "allow"],
  [["sed", "-n", "1,5p", "file.txt"], "allow"],
  [["nl", "-nrz", "Cargo.toml"], "allow"],
  [["find", ".", "-name", "file.txt"], "allow"],
  [["numfmt", "1000"], "allow"],
  [["tac", "Cargo.toml"], "allow"],
  // git_commands_require_approval
  [["git", "status"], "ask"],
  [["git", "diff", "-p"], "ask"],
  [["git", "log", "-p", "-1"], "ask"],
  [["git", "show", "-p", "HEAD"], "ask"],
  [["git", "branch", "--show-current"], "ask"],
  [["bash", "-lc", "git status"], "ask"],
  [["bash", "-lc", "git log -p -1"], "ask"],
  // cargo_check_is_not_safe, zsh_lc_safe_command_sequence
  [["cargo", "check"], "ask"],
  [["zsh", "-lc", "ls"], "allow"],
  // unknown_or_partial
  [["foo"], "ask"],
  [["git", "fetch"], "ask"],
  [["sed", "-n", "xp", "file.txt"], "allow", "differs: the rule exec:sed -n * allows any sed -n script"],
  [["find", ".", "-name", "file.txt", "-exec", "rm", "{}", ";"], "ask"],
  [["find", ".", "-name", "*.py", "-execdir", "python3", "{}", ";"], "ask"],
  [["find", ".", "-name", "file.txt", "-ok", "rm", "{}", ";"], "ask"],
  [["find", ".", "-name", "*.py", "-okdir", "python3", "{}", ";"], "ask"],
  [["find", ".", "-delete", "-name", "file.txt"], "ask"],
  [["find", ".", "-fls", "/etc/passwd"], "ask"],
  [["find", ".", "-fprint", "/etc/passwd"], "ask"],
  [["find", ".", "-fprint0", "/etc/passwd"], "ask"],
  [["find", ".", "-fprintf", "/root/suid.txt", "%#m %u %p\n"], "ask"],
  // base64_output_options_are_unsafe
  [["base64", "-o", "out.bin"], "ask"],
  [["base64", "--output", "out.bin"], "ask"],
  [["base64", "--output=out.bin"], "ask"],
  [["base64", "-ob64.txt"], "ask"],
  // ripgrep_rules
  [["rg", "Cargo.toml", "-n"], "allow"],
  [["rg", "--search-zip", "files"], "ask"],
  [["rg", "-z", "files"], "ask"],
  [["rg", "--pre", "pwned", "files"], "ask"],
  [["rg", "--pre=pwned", "files"], "ask"],
  [["rg", "--hostname-bin", "pwned", "files"], "ask"],
  [["rg", "--hostname-bin=pwned", "files"], "ask"],
  // bash_lc_safe_examples, bash_lc_safe_examples_with_operators
  [["bash", "-lc", "ls"], "allow"],
  [["bash", "-lc", "ls -1"], "allow"],
  [["bash", "-lc", 'grep -R "Cargo.toml" -n'], "allow"],
  [["bash", "-lc", "sed -n 1,5p file.txt"], "allow"],
  [["bash", "-lc", "sed -n '1,5p' file.txt"], "allow"],
  [["bash", "-lc", "find . -name file.txt"], "allow"],
  [["bash", "-lc", 'grep -R "Cargo.toml" -n || true'], "allow"],
  [["bash", "-lc", "ls && pwd"], "allow"],
  [["bash", "-lc", "echo 'hi' ; ls"], "allow"],
  [["bash", "-lc", "ls | wc -l"], "allow"],
  // bash_lc_unsafe_examples
  [["bash", "-lc", "git status"], "ask"],
  [["bash", "-lc", "git", "status"], "ask"],
  [["bash", "-lc", "'git status'"], "ask"],
  [["bash", "-lc", "find . -name file.txt -delete"], "ask"],
  [["bash", "-lc", "ls && rm -rf /"], "ask"],
  [["bash", "-lc", "(ls)"], "allow", "differs: our splitter follows subshells"],
  [["bash", "-lc", "ls || (pwd && echo hi)"], "allow", "differs: our splitter follows subshells"],
  [["bash", "-lc", "ls > out.txt"], "ask"],
];

/** bash.rs: scripts Codex's plain-command parser accepts or rejects, as `bash -lc SCRIPT` lines. */
const BASH_SCRIPTS: [string, Effect, string?][] = [
  ["ls -1", "allow"],
  ["ls && pwd; echo 'hi there' | wc -l", "allow"],
  ['echo "hello world"', "allow"],
  ["echo 'hi there'", "allow"],
  [`echo "/usr"'/'"local"/bin`, "allow"],
  [`echo '/usr'"/"'local'/bin`, "allow"],
  ['echo "hi ${USER}"', "allow", "differs: an expansion in an argument is data"],
  ['echo "$HOME"', "allow", "differs: an expansion in an argument is data"],
  ["echo 123 456", "allow"],
  ["(ls)", "allow", "differs: our splitter follows subshells"],
  ["ls || (pwd && echo hi)", "allow", "differs: our splitter follows subshells"],
  ["ls > out.txt", "ask"],
  ["echo hi & echo bye", "allow", "differs: both commands are checked"],
  ["echo $(pwd)", "allow", "differs: the substituted command is checked (and allowed)"],
  ["echo `pwd`", "allow", "differs: the substituted command is checked (and allowed)"],
  ["echo $HOME", "allow", "differs: an expansion in an argument is data"],
  ['echo "hi $USER"', "allow", "differs: an expansion in an argument is data"],
  ["FOO=bar ls", "ask"],
  ["ls &&", "ask"],
  ["&& ls", "ask"],
  ["ls ;; pwd", "ask"],
  ["ls | | wc", "ask"],
  ['rg -n "foo" -g"*.py"', "allow"],
  ["grep -n 'pattern' -g'*.txt'", "allow"],
  ['rg -g"$VAR" pattern', "allow", "differs: the expansion stays inside the -g value"],
  ['rg -g"${VAR}" pattern', "allow", "differs: the expansion stays inside the -g value"],
  ['rg -g"$(pwd)" pattern', "allow", "differs: the substituted command is checked (and allowed)"],
  ["rg -g\"$(echo '*.py')\" pattern", "allow", "differs: the substituted command is checked (and allowed)"],
  // parse_shell_lc_single_command_prefix cases: python3 is not in the safe list, so these ask.
  ["python3 <<'PY'\nprint('hello')\nPY", "ask"],
  ["echo hello > /tmp/out.txt", "ask"],
  ["PATH=/tmp/evil:$PATH cat <<'EOF'\nhello\nEOF", "ask"],
  ["echo hello > /tmp/out.txt && cat /tmp/out.txt", "ask"],
  ['python3 <<< "$(rm -rf /)"', "ask"],
  ["echo $((1<<2))", "ask"],
];

function effectOf(command: string): Effect {
  return evaluate({ tool: "exec", targets: [command], readOnly: false, sensitive: false }, RULES).effect;
}

describe("Codex is_safe_command.rs cases", () => {
  for (const [argv, expected, note] of IS_SAFE_COMMAND) {
    const line = commandLine(argv);
    test(`${line} -> ${expected}${note ? ` (${note})` : ""}`, () => {
      expect(effectOf(line)).toBe(expected);
    });
  }
});

describe("Codex bash.rs cases", () => {
  for (const [script, expected, note] of BASH_SCRIPTS) {
    const line = commandLine(["bash", "-lc", script]);
    test(`bash -lc ${JSON.stringify(script)} -> ${expected}${note ? ` (${note})` : ""}`, () => {
      expect(effectOf(line)).toBe(expected);
    });
  }

  test("words keep their quoting rules (accepts_double_quoted_strings_with_newlines, mixed quotes)", () => {
    expect(splitShell('git commit -m "line1\nline2"')).toMatchObject({
      ok: true,
      commands: [["git", "commit", "-m", "line1\nline2"]],
    });
    expect(splitShell(`echo "/usr"'/'"local"/bin`)).toMatchObject({ commands: [["echo", "/usr/local/bin"]] });
    expect(splitShell('rg -n "foo" -g"*.py"')).toMatchObject({ commands: [["rg", "-n", "foo", "-g*.py"]] });
  });
});
