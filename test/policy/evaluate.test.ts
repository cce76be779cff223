// biome-ignore-all lint/suspicious/noTemplateCurlyInString: many strings here are shell commands, not templates
import { describe, expect, test } from "bun:test";
import { evaluate } from "../../src/policy/evaluate.ts";
import { parseRule } from "../../src/policy/rules.ts";
import type { Effect, PolicyRequest, Rule } from "../../src/policy/types.ts";

const READ_ONLY = new Set(["read_file", "grep", "glob"]);

function req(tool: string, targets: string[], sensitive = false): PolicyRequest {
  return { tool, targets, readOnly: READ_ONLY.has(tool), sensitive };
}

function rules(spec: { allow?: string[]; ask?: string[]; deny?: string[]; session?: string[] }): Rule[] {
  return [
    ...(spec.allow ?? []).map((t) => parseRule(t, "allow", "user")),
    ...(spec.ask ?? []).map((t) => parseRule(t, "ask", "project")),
    ...(spec.deny ?? []).map((t) => parseRule(t, "deny", "project")),
    ...(spec.session ?? []).map((t) => parseRule(t, "allow", "session")),
  ];
}

function execEffect(command: string, set: Rule[]): Effect {
  return evaluate(req("exec", [command]), set).effect;
}

describe("evaluate: defaults", () => {
  test("read-only primitives inside the workspace allow", () => {
    for (const tool of ["read_file", "grep", "glob"]) {
      const verdict = evaluate(req(tool, ["src/a.ts"]), []);
      expect(verdict).toEqual({
        effect: "allow",
        reason: "default: read-only tools are allowed in the workspace",
      });
    }
    expect(evaluate(req("grep", []), []).effect).toBe("allow");
  });

  test("read-only primitives outside the workspace ask, even when a rule matches", () => {
    expect(evaluate(req("read_file", ["../secret"]), []).effect).toBe("ask");
    expect(evaluate(req("read_file", ["/etc/passwd"]), rules({ allow: ["read_file"] })).effect).toBe("ask");
  });

  test("writes, exec and fetch ask", () => {
    for (const tool of ["write_file", "edit_file", "apply_patch", "exec", "fetch"]) {
      const verdict = evaluate(req(tool, ["x"]), []);
      expect(verdict.effect).toBe("ask");
      expect(verdict.rule).toBeUndefined();
      expect(verdict.reason).toContain("default");
    }
  });
});

describe("evaluate: precedence", () => {
  test("deny beats ask beats allow, and the deciding rule is returned", () => {
    const all = rules({ allow: ["exec:git *"], ask: ["exec:git push *"], deny: ["exec:git push --force*"] });
    expect(evaluate(req("exec", ["git status"]), all)).toMatchObject({
      effect: "allow",
      rule: { text: "exec:git *" },
    });
    expect(evaluate(req("exec", ["git push origin"]), all)).toMatchObject({
      effect: "ask",
      rule: { text: "exec:git push *" },
      // The rules() helper puts ask and deny rules in the project's file: the reason says so.
      reason: "ask rule exec:git push * of the project's .agent/config.yaml",
    });
    expect(evaluate(req("exec", ["git push --force origin"]), all)).toMatchObject({
      effect: "deny",
      rule: { text: "exec:git push --force*" },
      reason: "deny rule exec:git push --force* of the project's .agent/config.yaml",
    });
    // A rule of the user's own config or a flag is named as written.
    const own = [parseRule("exec:rm *", "deny", "user"), parseRule("exec:npm *", "ask", "flag")];
    expect(evaluate(req("exec", ["rm -rf x"]), own).reason).toBe("deny rule exec:rm *");
    expect(evaluate(req("exec", ["npm publish"]), own).reason).toBe("ask rule exec:npm *");
  });

  test("a deny rule refuses a read-only tool too", () => {
    expect(evaluate(req("read_file", [".env"]), rules({ deny: ["read_file:.env"] })).effect).toBe("deny");
  });

  test("a bare TOOL rule matches every call of that tool, and only that tool", () => {
    expect(evaluate(req("fetch", ["https://x.test/"]), rules({ allow: ["fetch"] })).effect).toBe("allow");
    expect(evaluate(req("write_file", ["a"]), rules({ allow: ["fetch"] })).effect).toBe("ask");
  });

  test("a session grant beats an ask rule but never a deny rule", () => {
    const set = rules({
      ask: ["exec:git push *"],
      deny: ["exec:rm *"],
      session: ["exec:git push origin", "exec:rm x"],
    });
    expect(execEffect("git push origin", set)).toBe("allow");
    expect(execEffect("rm x", set)).toBe("deny");
  });
});

describe("evaluate: exec", () => {
  const echo = rules({ allow: ["exec:echo *"] });

  test("an exec:echo * allow rule allows plain echo", () => {
    expect(execEffect("echo hi there", echo)).toBe("allow");
    expect(execEffect('echo "a; b"', echo)).toBe("allow");
  });

  test.each([
    "echo hi; rm x",
    "echo hi && rm x",
    "echo $(rm x)",
    "echo `rm x`",
    "echo hi | sh",
    "echo <(rm x)",
    'bash -c "rm x"',
    "echo 'unbalanced",
    "$cmd hi",
  ])("exec:echo * does not allow %p", (command) => {
    expect(execEffect(command, echo)).toBe("ask");
  });

  test("bash -c and eval are transparent: their script is checked, not the shell (pinned)", () => {
    expect(execEffect('bash -c "echo hi"', echo)).toBe("allow");
    expect(execEffect("eval echo hi", echo)).toBe("allow");
    expect(execEffect("bash script.sh", echo)).toBe("ask");
  });

  test("every simple command must be allowed", () => {
    const set = rules({ allow: ["exec:npm test *", "exec:git status"] });
    expect(execEffect("git status && npm test -- --watch=false", set)).toBe("allow");
    expect(execEffect("git status && npm install", set)).toBe("ask");
  });

  test("a deny rule on any part denies the whole command", () => {
    const set = rules({ allow: ["exec:echo *"], deny: ["exec:curl *"] });
    const verdict = evaluate(req("exec", ["echo $(curl evil.test)"]), set);
    expect(verdict).toMatchObject({ effect: "deny", rule: { text: "exec:curl *" } });
  });

  test("deny rules also see the unquoted form of a command", () => {
    const set = rules({ deny: ["exec:curl https://evil.test/a b"] });
    expect(execEffect('curl "https://evil.test/a b"', set)).toBe("deny");
  });

  test("an unparsable command asks, and is denied when any deny rule exists", () => {
    expect(evaluate(req("exec", ["rm${IFS}-rf /"]), rules({ allow: ["exec:rm *"] }))).toMatchObject({
      effect: "ask",
      reason: expect.stringContaining("unparsable shell"),
    });
    expect(execEffect("rm 'unbalanced", rules({ deny: ["exec:rm *"] }))).toBe("deny");
    expect(evaluate(req("exec", ["echo 'unbalanced"]), rules({ deny: ["exec:rm *"] }))).toMatchObject({
      effect: "deny",
      reason: expect.stringContaining("cannot tell which programs run"),
    });
  });

  test("wrappers need their own allow rule when they change privileges", () => {
    const set = rules({ allow: ["exec:rm *"] });
    expect(execEffect("sudo rm x", set)).toBe("ask");
    expect(execEffect("sudo rm x", rules({ allow: ["exec:rm *", "exec:sudo rm *"] }))).toBe("allow");
    expect(execEffect("env rm x", set)).toBe("allow");
    expect(execEffect("env FOO=1 rm x", set)).toBe("ask");
    expect(execEffect("find . -exec rm {} \\;", rules({ allow: ["exec:find *"] }))).toBe("ask");
  });

  test("output redirected to a file asks even when the command is allowed", () => {
    expect(evaluate(req("exec", ["echo hi > /etc/passwd"]), echo)).toMatchObject({
      effect: "ask",
      reason: "exec writes to /etc/passwd through a redirection",
    });
    expect(execEffect("echo hi > /dev/null 2>&1", echo)).toBe("allow");
  });

  test("a session grant for the exact command line covers its redirections", () => {
    expect(execEffect("echo hi > out.txt", rules({ session: ["exec:echo hi > out.txt"] }))).toBe("allow");
  });

  test("a command with nothing to run asks", () => {
    expect(execEffect("X=1", echo)).toBe("ask");
    expect(execEffect("", echo)).toBe("ask");
  });

  test("a trailing ' *' also matches the bare command", () => {
    const set = rules({ allow: ["exec:npm test *"], deny: ["exec:rm *"] });
    expect(execEffect("npm test", set)).toBe("allow");
    expect(execEffect("npm tester", set)).toBe("ask");
    expect(execEffect("ls | xargs rm", rules({ allow: ["exec:*"], deny: ["exec:rm *"] }))).toBe("deny");
  });

  test("deny rules also see the program without its directory", () => {
    const set = rules({ allow: ["exec:*"], deny: ["exec:rm *"] });
    expect(execEffect("/bin/rm -rf x", set)).toBe("deny");
    expect(execEffect("\\rm -rf x", set)).toBe("deny");
    expect(execEffect("command rm -rf x", set)).toBe("deny");
  });

  test("default allow rules are exact", () => {
    const set = [parseRule("exec:git status", "allow", "default")];
    expect(execEffect("git status", set)).toBe("allow");
    expect(execEffect("git status; rm x", set)).toBe("ask");
  });
});

describe("evaluate: file tools", () => {
  test("path globs: ** crosses directories, * does not", () => {
    const set = rules({ allow: ["write_file:src/**", "write_file:*.txt"] });
    expect(evaluate(req("write_file", ["src/a/b/c.ts"]), set).effect).toBe("allow");
    expect(evaluate(req("write_file", ["./src/a.ts"]), set).effect).toBe("allow");
    expect(evaluate(req("write_file", ["notes.txt"]), set).effect).toBe("allow");
    expect(evaluate(req("write_file", ["docs/notes.txt"]), set).effect).toBe("ask");
    expect(evaluate(req("write_file", ["lib/a.ts"]), set).effect).toBe("ask");
    expect(evaluate(req("edit_file", ["lib/a.ts"]), set).effect).toBe("ask");
  });

  test("one rule for file changes: edit_file, write_file and apply_patch rules govern each other's calls", () => {
    // The README's CI example on a GPT model, which edits through apply_patch.
    const edits = rules({ allow: ["edit_file:**"] });
    expect(evaluate(req("apply_patch", ["greet.js"]), edits)).toMatchObject({
      effect: "allow",
      rule: { text: "edit_file:**" },
    });
    expect(evaluate(req("edit_file", ["greet.js"]), edits).effect).toBe("allow");
    expect(evaluate(req("write_file", ["src/new.ts"]), edits).effect).toBe("allow");
    const writes = rules({ allow: ["write_file:src/**"] });
    expect(evaluate(req("edit_file", ["src/a.ts"]), writes).effect).toBe("allow");
    // A patch moving src/a.ts out of src/ checks both paths: the destination is not covered.
    expect(evaluate(req("apply_patch", ["src/a.ts", "lib/a.ts"]), writes).effect).toBe("ask");
    expect(evaluate(req("apply_patch", ["src/a.ts", "src/b.ts"]), writes).effect).toBe("allow");
    // Deny and ask rules of any of the three names stop the others too.
    const guarded = rules({ allow: ["edit_file:**"], deny: ["write_file:.env"], ask: ["apply_patch:ci/**"] });
    expect(evaluate(req("apply_patch", ["a.ts", ".env"]), guarded)).toMatchObject({
      effect: "deny",
      rule: { text: "write_file:.env" },
    });
    expect(evaluate(req("edit_file", [".env"]), guarded).effect).toBe("deny");
    expect(evaluate(req("write_file", ["ci/build.yml"]), guarded).effect).toBe("ask");
    // Other tools are not file changes: an edit rule does not reach reads' denials or exec.
    expect(evaluate(req("exec", ["rm greet.js"]), edits).effect).toBe("ask");
    expect(evaluate(req("read_file", ["a.ts"]), rules({ deny: ["edit_file:a.ts"] })).effect).toBe("allow");
    // A sensitive path still asks under a broad rule of any name.
    expect(evaluate(req("apply_patch", [".git/config"], true), edits).effect).toBe("ask");
  });

  test("a patch is allowed only if every target is", () => {
    const set = rules({ allow: ["apply_patch:src/**"], deny: ["apply_patch:src/secret.ts"] });
    expect(evaluate(req("apply_patch", ["src/a.ts", "src/b.ts"]), set).effect).toBe("allow");
    expect(evaluate(req("apply_patch", ["src/a.ts", "README.md"]), set).effect).toBe("ask");
    expect(evaluate(req("apply_patch", ["src/a.ts", "src/secret.ts"]), set)).toMatchObject({
      effect: "deny",
      rule: { text: "apply_patch:src/secret.ts" },
    });
  });

  test("sensitive requests ask even when a rule allows them", () => {
    const verdict = evaluate(req("write_file", [".git/config"], true), rules({ allow: ["write_file:**"] }));
    expect(verdict.effect).toBe("ask");
    expect(verdict.reason).toContain("sensitive");
    expect(evaluate(req("read_file", [".agent/config.yaml"], true), []).effect).toBe("ask");
  });

  test("a session grant for that exact path lifts sensitive (the user was asked)", () => {
    const set = rules({ session: ["write_file:.git/config"] });
    expect(evaluate(req("write_file", [".git/config"], true), set).effect).toBe("allow");
    expect(evaluate(req("write_file", [".git/HEAD"], true), set).effect).toBe("ask");
  });
});

describe("evaluate: fetch", () => {
  test("URL globs, normalized", () => {
    const set = rules({ allow: ["fetch:https://docs.example.com/*"] });
    expect(evaluate(req("fetch", ["https://docs.example.com/a/b?c=1"]), set).effect).toBe("allow");
    expect(evaluate(req("fetch", ["HTTPS://DOCS.EXAMPLE.COM/a"]), set).effect).toBe("allow");
    expect(evaluate(req("fetch", ["https://docs.example.com.evil.test/a"]), set).effect).toBe("ask");
    expect(evaluate(req("fetch", ["https://docs.example.com@evil.test/a"]), set).effect).toBe("ask");
  });
});

describe("evaluate: a deny must be hard to dodge, an allow hard to widen", () => {
  const WRAPPED_RM = [
    "flock /tmp/l rm -rf x",
    "flock /tmp/l -c 'rm -rf x'",
    "chrt 10 rm -rf x",
    "taskset 0x1 rm -rf x",
    "setpriv --nnp rm -rf x",
    "script -c 'rm -rf x' /dev/null",
    "unshare -r rm -rf x",
    "strace -f rm -rf x",
    "watch rm -rf x",
    "ionice -c 3 rm -rf x",
    "stdbuf -oL rm -rf x",
    "sudo rm -rf x",
    "doas rm -rf x",
    "su -c 'rm -rf x'",
    "busybox rm -rf x",
    "time rm -rf x",
    "nice -n 5 rm -rf x",
    "nohup rm -rf x",
    "command rm -rf x",
    "builtin exec rm -rf x",
    "exec rm -rf x",
    "env -i rm -rf x",
    "timeout 5 rm -rf x",
    "echo x | xargs rm -rf",
    "find . -exec rm -rf {} +",
    "bash -c 'rm -rf x'",
    "some-unknown-tool --run rm -rf x",
    "node -e \"require('child_process').execSync('rm -rf x')\"",
    "git -c alias.x='!rm -rf x' x",
    "HOME=. rm -rf x",
    "/bin/rm -rf x",
  ];
  const deny = rules({ allow: ["exec:*"], deny: ["exec:rm *"] });
  for (const command of WRAPPED_RM) {
    test(`deny exec:rm * sees through ${command}`, () => {
      expect(execEffect(command, deny)).toBe("deny");
    });
  }

  test("deny and ask rules for a git subcommand see through options before it", () => {
    // The bypass reported for Claude Code in anthropics/claude-code#66176 (`git -C /path push`).
    const push = rules({ allow: ["exec"], deny: ["exec:git push *"], ask: ["exec:git reset --hard*"] });
    for (const command of [
      "git -C /elsewhere push origin main",
      "git --git-dir=.git --work-tree=. push",
      "git -c user.name=x push --force",
      "git --no-pager push",
      "/usr/bin/git -C . push",
      "HOME=. git -C . push",
    ]) {
      expect(execEffect(command, push)).toBe("deny");
    }
    expect(execEffect("git -C /elsewhere reset --hard HEAD~1", push)).toBe("ask");
    expect(execEffect("git -C /elsewhere status", push)).toBe("allow");
  });

  test("programs that never run their arguments are not denied for mentioning the program", () => {
    expect(execEffect("echo rm -rf x", deny)).toBe("allow");
    expect(execEffect("grep -r 'rm -rf' .", deny)).toBe("allow");
    expect(execEffect("docker run --rm img", deny)).toBe("allow");
    expect(execEffect("git rm x", rules({ allow: ["exec:git rm *"], deny: ["exec:rm *"] }))).toBe("allow");
  });

  test("a command whose program cannot be resolved is denied when any deny rule exists, else asks", () => {
    for (const command of [
      "$R -rf x",
      "${R:-ls} x",
      "$(echo ls) x",
      "`echo ls` x",
      'eval "$x"',
      "sudo $cmd",
    ]) {
      expect(evaluate(req("exec", [command]), deny)).toMatchObject({
        effect: "deny",
        reason: expect.stringContaining("cannot tell which programs run"),
      });
      expect(execEffect(command, rules({ allow: ["exec:*"] }))).toBe("ask");
    }
  });

  test("an expansion handed to a program that may run its arguments is denied when any deny rule exists", () => {
    for (const command of [
      "my-wrapper $CMD",
      'some-tool --quiet "$(echo ls)" -rf x',
      "my-tool `echo ls` x",
    ]) {
      expect(evaluate(req("exec", [command]), deny)).toMatchObject({
        effect: "deny",
        reason: expect.stringContaining("may be a command"),
      });
    }
    expect(execEffect("my-wrapper $CMD", rules({ allow: ["exec:my-wrapper *"] }))).toBe("allow");
    expect(execEffect("echo $R -rf x", deny)).toBe("allow");
    expect(execEffect("cd $DIR", deny)).toBe("allow");
  });

  test("an allow rule for the inner program does not cover a wrapper that changes how it runs", () => {
    const rm = rules({ allow: ["exec:rm *"] });
    for (const command of ["flock /tmp/l rm x", "chrt 10 rm x", "strace rm x", "watch rm x", "sudo rm x"]) {
      expect(execEffect(command, rm)).toBe("ask");
    }
    expect(execEffect("timeout 5 rm x", rm)).toBe("allow");
  });

  test("environment assignments in front are part of what an allow rule must match", () => {
    const git = rules({ allow: ["exec:git status", "exec:git diff *"] });
    for (const command of [
      "HOME=. git status",
      "XDG_CONFIG_HOME=. git status",
      "env HOME=. git status",
      "A=1 git diff",
    ]) {
      expect(execEffect(command, git)).toBe("ask");
    }
    expect(execEffect("git status", git)).toBe("allow");
    expect(execEffect("HOME=. git status", rules({ allow: ["exec:HOME=. git status"] }))).toBe("allow");
    expect(execEffect("HOME=. git status", rules({ allow: ["exec:*"], deny: ["exec:git status"] }))).toBe(
      "deny",
    );
  });

  test("risky options are not covered by a narrow allow rule, unless the rule names the option", () => {
    const fetch = rules({
      allow: ["exec:git fetch *", "exec:git log *", "exec:git grep *", "exec:git archive *"],
    });
    for (const command of [
      "git fetch --upload-pack=x origin",
      "git fetch --upload-pa=x origin",
      "git fetch -u x origin",
      "git log --output=x",
      "git log --out=x",
      "git grep -O a",
      "git grep --open-files-in-pager=vi a",
      "git archive --exec=x HEAD",
      "git archive --remote=x HEAD",
    ]) {
      expect(evaluate(req("exec", [command]), fetch)).toMatchObject({
        effect: "ask",
        reason: expect.stringContaining("can run another program or write a file"),
      });
    }
    expect(execEffect("git fetch origin", fetch)).toBe("allow");
    expect(execEffect("git log -- --output=x", fetch)).toBe("allow");
    expect(execEffect("git log --output=x", rules({ allow: ["exec:git log --output=*"] }))).toBe("allow");
    const any = rules({ allow: ["exec:git *"] });
    for (const command of [
      "git -c core.pager=sh log",
      "git --config-env=core.pager=X log",
      "git --exec-path=. st",
    ]) {
      expect(execEffect(command, any)).toBe("ask");
    }
    expect(execEffect("git -c core.pager=sh log", rules({ allow: ["exec"] }))).toBe("allow");
  });
});
