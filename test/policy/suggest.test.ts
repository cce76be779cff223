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
    expect(suggestAllowRules(exec("ls && npm test"), rules)).toEqual(["exec:npm test"]);
    expect(suggestAllowRules(exec("npm ci; npm test"), rules)).toEqual(["exec:npm ci", "exec:npm test"]);
  });

  test("nothing when no allow rule can let it through", () => {
    const denying = buildRuleSet({ flags: { deny: ["exec:rm *"] } });
    expect(suggestAllowRules(exec("rm -rf build"), denying)).toEqual([]);
    expect(suggestAllowRules(exec("echo hi > out.txt"), rules)).toEqual([]); // a redirection always asks
    expect(suggestAllowRules(write(".git/config", true), rules)).toEqual([]); // sensitive paths always ask
    expect(suggestAllowRules(exec("$(printf rm) x"), rules)).toEqual([]); // unparsable shell asks
  });
});
