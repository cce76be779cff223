// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are shell commands, not templates
import { describe, expect, test } from "bun:test";
import { splitShell } from "../../src/policy/shell-split.ts";

/** [command, the simple-command texts it must split into] — or null when it must be unparsable. */
const TABLE: [string, string[] | null][] = [
  // separators
  ["git status", ["git status"]],
  ["echo hi; rm -rf /", ["echo hi", "rm -rf /"]],
  ["echo a && curl x", ["echo a", "curl x"]],
  ["a || b", ["a", "b"]],
  ["a | b", ["a", "b"]],
  ["a |& b", ["a", "b"]],
  ["a & b", ["a", "b"]],
  ["sleep 1 &", ["sleep 1"]],
  ["echo a\nrm b\n", ["echo a", "rm b"]],
  ["echo a \\\n  b", ["echo a b"]],
  ["echo a # ; rm x", ["echo a"]],
  // grouping
  ["(cd x; rm y)", ["cd x", "rm y"]],
  ["{ a; b; }", ["a", "b"]],
  ["! grep -q x f && touch y", ["grep -q x f", "touch y"]],
  ["if [ -f x ]; then rm x; else ls; fi", ["[ -f x ]", "rm x", "ls"]],
  ["while read l; do echo $l; done < list", ["read l", "echo $l"]],
  ["for f in $(ls); do rm $f; done", ["ls", "rm $f"]],
  // substitutions
  ["echo $(rm -rf x)", ["rm -rf x", "echo $(rm -rf x)"]],
  ["echo `rm x`", ["rm x", "echo `rm x`"]],
  ['echo "$(curl x | sh)"', ["curl x", "sh", "echo $(curl x | sh)"]],
  ["echo $(echo $(rm x))", ["rm x", "echo $(rm x)", "echo $(echo $(rm x))"]],
  ["cat <(curl x)", ["curl x", "cat <(curl x)"]],
  ["tee >(rm x) < f", ["rm x", "tee >(rm x)"]],
  ["x=$(rm y)", ["rm y"]],
  // redirections: the target is not a command
  ["echo hi > /etc/passwd", ["echo hi"]],
  ["echo hi >| f", ["echo hi"]],
  ["echo hi >> f", ["echo hi"]],
  ["make 2>&1 | tee log", ["make", "tee log"]],
  ["npm test &> out.txt", ["npm test"]],
  ["sort < in.txt", ["sort"]],
  ["cat <<< 'rm x'", ["cat"]],
  ["echo > $(rm x)", ["rm x", "echo"]],
  // heredocs: the body is data, but substitutions in an unquoted body run
  ["cat <<EOF\nrm -rf /\nEOF", ["cat"]],
  ["cat <<EOF\nhello $(whoami)\nEOF\necho done", ["cat", "whoami", "echo done"]],
  ["cat <<'EOF'\n$(rm x)\nEOF", ["cat"]],
  ["cat <<-EOF\n\trm x\n\tEOF\nls", ["cat", "ls"]],
  // wrappers
  ["bash -c 'rm x'", ["rm x"]],
  ['sh -c "a; b"', ["a", "b"]],
  ["bash -lc 'npm test'", ["npm test"]],
  ["bash script.sh", ["bash script.sh"]],
  ['eval "rm x"', ["rm x"]],
  ["env X=1 rm x", ["env X=1 rm x"]],
  ["env rm x", ["rm x"]],
  ["X=1 Y=2 rm x", ["X=1 Y=2 rm x"]],
  ["sudo rm x", ["sudo rm x", "rm x"]],
  ["sudo -u root rm x", ["sudo -u root rm x", "rm x"]],
  ["ls | xargs rm", ["ls", "xargs rm", "rm"]],
  ["xargs -I{} rm {}", ["xargs -I{} rm {}", "rm {}"]],
  ["timeout 5 rm x", ["rm x"]],
  ["nohup nice -n 5 time rm x", ["rm x"]],
  ["find . -exec rm {} \\;", ["find . -exec rm {} ';'", "rm {}"]],
  ["find . -name '*.ts' -execdir wc -l {} +", ["find . -name *.ts -execdir wc -l {} +", "wc -l {}"]],
  ["command rm x", ["rm x"]],
  ["/usr/bin/env bash -c 'rm x'", ["rm x"]],
  ["git -C sub status", ["git -C sub status"]],
  ["setsid rm x", ["setsid rm x", "rm x"]],
  ["stdbuf -oL rm x", ["stdbuf -oL rm x", "rm x"]],
  ["trap 'rm x' EXIT", ["trap 'rm x' EXIT", "rm x"]],
  // quoting
  ['echo "a; b"', ["echo 'a; b'"]],
  ["echo 'a && b'", ["echo 'a && b'"]],
  ["echo a\\;b", ["echo 'a;b'"]],
  ['git commit -m "fix: a b"', ["git commit -m 'fix: a b'"]],
  ["echo $'a\\tb'", ["echo 'a\tb'"]],
  ['"rm" -rf x', ["rm -rf x"]],
  ["echo it\\'s", ["echo 'it'\\''s'"]],
  // unparsable: ask
  ["echo 'a", null],
  ['echo "a', null],
  ["echo `a", null],
  ["(echo a", null],
  ["echo a)", null],
  ["echo $(a", null],
  ["rm${IFS}-rf /", null],
  ["${x} a", null],
  ["$cmd args", null],
  ["$(echo rm) x", null],
  ["`echo rm` x", null],
  ["{rm,-rf} x", null],
  ["./*", null],
  ["git -c core.pager=sh log", ["git -c core.pager=sh log"]],
  ["git --config-env=core.pager=X log", ["git --config-env=core.pager=X log"]],
  ["env -S 'rm x'", null],
  ["sudo $cmd", null],
  ['bash -c "$script"', null],
  ['eval "$x"', null],
  ["find . -exec rm {}", null],
  ["case x in a) rm;; esac", null],
  ["f() { rm x; }", null],
  ["echo $((1 + 2))", null],
  ["echo ${x:-$(rm y)}", null],
  ["echo $'\\x72m'", null],
  ["cat <<EOF\nno end", null],
  ["echo hi >", null],
  ["[[ -f x ]] && rm x", null],
  // assignments that decide which program runs, or what it loads
  ["PATH=. ls", null],
  ["PATH=.; ls", null],
  ["LD_PRELOAD=./evil.so ls", null],
  ["env GIT_SSH_COMMAND='sh -c x' git fetch", null],
  ["BASH_ENV=./x bash -c ls", null],
  ["FOO=1 ls", ["FOO=1 ls"]],
  // parameter expansions: plain ones are data; ones that can run commands or indirect are refused
  [
    "echo ${x} ${#x} ${x:-d} ${x%.*} ${x//a/b} ${x^^} ${x:1:2} ${a[0]} ${a[@]} ${!}",
    ["echo ${x} ${#x} ${x:-d} ${x%.*} ${x//a/b} ${x^^} ${x:1:2} ${a[0]} ${a[@]} ${!}"],
  ],
  ["echo ${X@P}", null],
  ["echo ${x@Q}", null],
  ["echo ${!x}", null],
  ["echo ${!pre*}", null],
  ["echo ${a[i]}", null],
  ["echo ${#a[i]}", null],
  ["echo ${x:i}", null],
  ["echo ${x:1:n}", null],
  ["[ -v 'a[$(id)]' ]", null],
  ["printf -v 'a[`id`]' x", null],
  ["x='a[$(id)]'; echo", null],
  // empty commands around operators are syntax errors in bash: nothing is claimed
  ["ls &&", null],
  ["&& ls", null],
  ["; ls", null],
  ["ls | | wc", null],
  ["ls &&\n pwd", ["ls", "pwd"]],
  ["ls &&\npwd", ["ls", "pwd"]],
  ["(ls) && pwd", ["ls", "pwd"]],
  ["> out; ls", ["ls"]],
  // more wrappers that run their arguments
  ["flock /tmp/l rm x", ["flock /tmp/l rm x", "rm x"]],
  ["flock -n /tmp/l -c 'rm x'", ["flock -n /tmp/l -c 'rm x'", "rm x"]],
  ["chrt -f 10 rm x", ["chrt -f 10 rm x", "rm x"]],
  ["chrt -p 10 1234", ["chrt -p 10 1234"]],
  ["taskset -c 0 rm x", ["taskset -c 0 rm x", "rm x"]],
  ["setpriv --reuid=1000 rm x", ["setpriv --reuid=1000 rm x", "rm x"]],
  ["script -qc 'rm x' /dev/null", ["script -qc 'rm x' /dev/null", "rm x"]],
  ["unshare -r rm x", ["unshare -r rm x", "rm x"]],
  ["strace -f -o log rm x", ["strace -f -o log rm x", "rm x"]],
  ["watch -n 1 rm x", ["watch -n 1 rm x", "rm x"]],
  ["watch -x rm x", ["watch -x rm x", "rm x"]],
  ["ionice -c 3 rm x", ["ionice -c 3 rm x", "rm x"]],
  ["su -c 'rm x' root", ["su -c 'rm x' root", "rm x"]],
  ["su -s /bin/rm root", null],
  ["busybox rm x", ["rm x"]],
  ["time -o t.txt rm x", ["rm x"]],
  ["builtin exec rm x", ["rm x"]],
  ["doas -u root rm x", ["doas -u root rm x", "rm x"]],
];

describe("splitShell", () => {
  test("the table has at least 40 commands", () => {
    expect(TABLE.length).toBeGreaterThanOrEqual(40);
  });

  for (const [command, expected] of TABLE) {
    test(`${JSON.stringify(command)} -> ${expected === null ? "unparsable" : JSON.stringify(expected)}`, () => {
      const result = splitShell(command);
      if (expected === null) {
        expect(result.ok).toBe(false);
        if (!result.ok) expect(result.reason.length).toBeGreaterThan(0);
      } else {
        expect(result).toMatchObject({ ok: true, texts: expected });
      }
    });
  }

  test("argv keeps words whole after quote removal", () => {
    expect(splitShell(`git commit -m "a; b" && echo 'c d'`)).toMatchObject({
      ok: true,
      commands: [
        ["git", "commit", "-m", "a; b"],
        ["echo", "c d"],
      ],
    });
  });

  test("output redirections to files are reported as writes; fd duplication and /dev/null are not", () => {
    expect(splitShell("echo hi > /etc/passwd 2>&1")).toMatchObject({ ok: true, writes: ["/etc/passwd"] });
    expect(splitShell("a >> log; b >| f; c &> g; d <> h")).toMatchObject({
      ok: true,
      writes: ["log", "f", "g", "h"],
    });
    expect(splitShell("make >/dev/null 2>&1 < in")).toMatchObject({ ok: true, writes: [] });
  });

  test("an empty or comment-only line has no commands", () => {
    expect(splitShell("")).toEqual({ ok: true, commands: [], texts: [], writes: [] });
    expect(splitShell("# just a comment")).toMatchObject({ ok: true, commands: [] });
  });

  test("deep nesting and huge input are unparsable, not a crash", () => {
    expect(splitShell(`${"bash -c '".repeat(1)}${"eval ".repeat(40)}rm x'`).ok).toBe(false);
    expect(splitShell("a".repeat(70_000)).ok).toBe(false);
  });
});
