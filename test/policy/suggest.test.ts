import { describe, expect, test } from "bun:test";
import { evaluate } from "../../src/policy/evaluate.ts";
import { buildRuleSet, parseRule } from "../../src/policy/rules.ts";
import { suggestAllowRules } from "../../src/policy/suggest.ts";
import type { PolicyRequest } from "../../src/policy/types.ts";

const exec = (command: string): PolicyRequest => ({
  tool: "exec",
  targets: [command],
  readOnly: false,
  sensitive: false,
});
const write = (path: string, sensitive = false): PolicyRequest => ({
  tool: "write_file",
  targets: [path],
  readOnly: false,
  sensitive,
});

describe("suggestAllowRules", () => {
  const rules = buildRuleSet({});

  test("a file write: the exact path, escaped, and the rule really allows the call", () => {
    expect(suggestAllowRules(write("./src/a(1).ts"), rules)).toEqual(["write_file:src/a\\(1\\).ts"]);
    const [text] = suggestAllowRules(write("hello.py"), rules);
    expect(text).toBe("write_file:hello.py");
    expect(evaluate(write("hello.py"), [...rules, parseRule(text!, "allow", "flag")]).effect).toBe("allow");
  });

  test("a compound command: one rule per simple command that is not allowed yet", () => {
    // `ls` is allowed by default, so only `npm test` needs a rule.
    expect(suggestAllowRules(exec("ls && npm test"), rules)).toEqual(["exec:npm test *"]);
    expect(suggestAllowRules(exec("npm ci; npm test"), rules)).toEqual(["exec:npm ci *", "exec:npm test *"]);
    expect(suggestAllowRules(exec("seq 1 300 | wc -l"), rules)).toEqual(["exec:seq 1 300", "exec:wc -l"]);
  });

  test("nothing when no allow rule can let it through", () => {
    const denying = buildRuleSet({ flags: { deny: ["exec:rm *"] } });
    expect(suggestAllowRules(exec("rm -rf build"), denying)).toEqual([]);
    expect(suggestAllowRules(exec("echo hi > out.txt"), rules)).toEqual([]); // a redirection always asks
    expect(suggestAllowRules(write(".git/config", true), rules)).toEqual([]); // sensitive paths always ask
    expect(suggestAllowRules(exec("$(printf rm) x"), rules)).toEqual([]); // unparsable shell asks
  });
});

const patch = (...paths: string[]): PolicyRequest => ({
  tool: "apply_patch",
  targets: paths,
  readOnly: false,
  sensitive: false,
});

describe("suggestAllowRules: written as a person would", () => {
  const rules = buildRuleSet({});
  const cases: [string, string[]][] = [
    // Code on an interpreter's command line: the exact command (`node -e *` would allow any Node program).
    [
      `node -e "import('./greet.js').then(m=>console.log(m.greet('x')))"`,
      [`exec:node -e "import('./greet.js').then(m=>console.log(m.greet('x')))"`],
    ],
    ["python3 -c 'print(1 > 0)'", ["exec:python3 -c 'print(1 > 0)'"]],
    ["python3 -m pytest -q tests/", ["exec:python3 -m pytest *"]],
    // An interpreter given a script: the script's path.
    ["node greet.js --name x", ["exec:node greet.js *"]],
    ["python3 scripts/check.py --all", ["exec:python3 scripts/check.py *"]],
    // A script alone: the exact command is narrower than a glob.
    ["python3 hello.py", ["exec:python3 hello.py"]],
    ["node --inspect greet.js", ["exec:node --inspect greet.js"]],
    ["git status --short", ["exec:git status *"]],
    ["npm run build -- --watch", ["exec:npm run build *"]],
    ["cargo test parser::tests", ["exec:cargo test *"]],
    ["npx prettier --check .", ["exec:npx prettier *"]],
    ["bash -c 'bun test test/policy'", ["exec:bun test *"]],
    // Not a program people generalize: the exact command (an expansion kept as written).
    ["./run.sh 'é' \"$x\"", ["exec:./run.sh 'é' $x"]],
    ["seq 1 300", ["exec:seq 1 300"]],
    ["rm -rf build", ["exec:rm -rf build"]],
    // An environment assignment in front is part of what the rule must match.
    ["CI=1 npm test", ["exec:CI=1 npm test"]],
    // An option that runs a program or writes a file must be named: the exact command.
    ["git -c core.pager=sh log", ["exec:git -c core.pager=sh log"]],
    ["find . -name '*.tmp' -delete", ["exec:find . -name \\*.tmp -delete"]],
  ];
  test.each(cases)("%s", (command, expected) => {
    const suggested = suggestAllowRules(exec(command), rules);
    expect(suggested).toEqual(expected);
    if (suggested.length === 0) return;
    // Each suggestion really lets the call through.
    const added = suggested.map((text) => parseRule(text, "allow", "flag"));
    expect(evaluate(exec(command), [...rules, ...added]).effect).toBe("allow");
  });

  test("never broader than the user's deny and ask rules", () => {
    const denying = buildRuleSet({ flags: { deny: ["exec:git push *", "exec:curl *"] } });
    // A deny rule about `git push` leaves `git status *` alone; the denied command gets no suggestion.
    expect(suggestAllowRules(exec("git status"), denying)).toEqual(["exec:git status *"]);
    expect(suggestAllowRules(exec("git push --dry-run"), denying)).toEqual([]);
    // With a deny rule, an interpreter's code flag stays exact: code can run the denied program.
    expect(suggestAllowRules(exec("node -e 'console.log(1)'"), denying)).toEqual([
      "exec:node -e 'console.log(1)'",
    ]);
    const asking = buildRuleSet({ user: { ask: ["exec:npm run deploy *"] } });
    expect(suggestAllowRules(exec("npm run build"), asking)).toEqual(["exec:npm run build *"]);
    expect(suggestAllowRules(exec("npm run deploy"), asking)).toEqual([]);
    const wide = buildRuleSet({ user: { ask: ["exec:npm *"] } });
    expect(suggestAllowRules(exec("npm test"), wide)).toEqual([]);
  });

  test("a patch's paths are suggested as edit_file rules, those already allowed left out", () => {
    expect(suggestAllowRules(patch("greet.js", "b.js"), rules)).toEqual([
      "edit_file:greet.js",
      "edit_file:b.js",
    ]);
    const some = buildRuleSet({ flags: { allow: ["write_file:b.js"] } });
    expect(suggestAllowRules(patch("greet.js", "b.js"), some)).toEqual(["edit_file:greet.js"]);
  });
});
