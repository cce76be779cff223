// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are shell commands, not templates
/**
 * Every printed `--allow` suggestion is one shell word that a real bash reads back as exactly the rule:
 * each word is handed to `bash -c` inside `printf '%s\0' --allow WORD`, and the arguments bash passed
 * are compared with the rule (one argument, byte for byte).
 */
import { describe, expect, test } from "bun:test";
import { buildRuleSet } from "../../src/policy/rules.ts";
import { allowFlag, shellWord } from "../../src/policy/shell-quote.ts";
import { suggestAllowRules } from "../../src/policy/suggest.ts";

/** The arguments bash gives `printf` for `script_args`, split at the NULs printf wrote. */
function bashArgs(words: string): string[] {
  const proc = Bun.spawnSync(["bash", "--norc", "--noprofile", "-c", `printf '%s\\0' ${words}`], {
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", LC_ALL: "C.UTF-8" },
  });
  expect(proc.exitCode).toBe(0);
  const out = new TextDecoder().decode(proc.stdout);
  return out.split("\0").slice(0, -1);
}

const TRICKY = [
  "exec:npm test",
  "exec:node -e *",
  "write_file:src/a b.ts",
  "exec:node -e 'import('\\''./greet.js'\\'').then(m=>console.log(m))'",
  'exec:echo "a>b" > out.txt',
  "exec:echo $HOME `id` $(date) ${x:-y}",
  "exec:printf 'a\\\\b' \\* \\?",
  "exec:printf 'line one\nline two'",
  "exec:printf '\ttab\r\u0001\u007f'",
  "fetch:https://example.com/?q=1&r=2#frag",
  "exec:echo héllo wörld 日本 🎉",
  "exec:echo !! !$ !-1 'it''s'",
  "exec:a;b|c&&d||e",
  "edit_file:~/x",
  "exec:echo {a,b} [ab] # comment",
  "exec:x=1 y='2'",
  "mcp:github/create_issue",
  "exec:echo '",
  "exec:echo \\",
];

describe("shellWord: bash reads each word back as exactly the rule", () => {
  test.each(TRICKY)("%j", (rule) => {
    expect(bashArgs(allowFlag(rule))).toEqual(["--allow", rule]);
    expect(bashArgs(allowFlag(rule, { quote: "always" }))).toEqual(["--allow", rule]);
    expect(shellWord(rule)).not.toContain("\n");
  });

  test("plain rules stay bare; spaces get single quotes; control characters $'…'", () => {
    expect(shellWord("write_file:src/a.ts")).toBe("write_file:src/a.ts");
    expect(shellWord("write_file:src/a.ts", { quote: "always" })).toBe("'write_file:src/a.ts'");
    expect(shellWord("exec:node -e *")).toBe("'exec:node -e *'");
    expect(shellWord("exec:printf 'a\nb'")).toBe("$'exec:printf \\'a\\nb\\''");
  });
});

/** Commands a model sends, as the gate would be asked about them; each suggestion must paste back. */
const COMMANDS = [
  `node -e "import('./greet.js').then(m=>console.log(m.greet('x')))"`,
  `python3 -c 'import sys; print(sys.argv[1] > "a")' "b c"`,
  "seq 1 300 | awk '{s+=$1} END {print s}'",
  `echo "it's \\"quoted\\"" && printf '%s\\n' 'a\\b'`,
  "printf 'first\nsecond\n' | sort -r",
  "grep -rn 'TODO\\|FIXME' --include='*.ts' src",
  "echo 'héllo → wörld ✓'",
  "jq '.items[] | select(.name == \"x\")' data.json",
  "sed -n '1,5p' 'file with spaces.txt'",
  "cat <<'EOF'\nliteral $x\nEOF",
];

describe("suggested rules for tricky commands paste back exactly", () => {
  const rules = buildRuleSet({});
  test.each(COMMANDS)("%j", (command) => {
    const suggested = suggestAllowRules(
      { tool: "exec", targets: [command], readOnly: false, sensitive: false },
      rules,
    );
    expect(suggested.length).toBeGreaterThan(0);
    const words = suggested.map((rule) => allowFlag(rule)).join(" ");
    expect(bashArgs(words)).toEqual(suggested.flatMap((rule) => ["--allow", rule]));
  });
});
