/**
 * What `*` matches in a rule, as docs/approvals-and-rules.md states it (issue 21, newcomer item 10):
 * `exec:npm test *` covers bare `npm test` and `npm test ARGS` but not `npm testx`; `exec:npm test*` covers
 * `npm testx` too; in paths `*` stays in one folder and `**` crosses folders.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { evaluate } from "../../src/policy/evaluate.ts";
import { buildRuleSet } from "../../src/policy/rules.ts";

const DOC = readFileSync(join(import.meta.dir, "..", "..", "docs", "approvals-and-rules.md"), "utf8");

/** The decision of `--allow RULE` for one call. */
function decisionOf(rule: string, tool: string, target: string): string {
  const rules = buildRuleSet({ flags: { allow: [rule], deny: [] }, defaults: false });
  return evaluate({ tool, targets: [target], readOnly: false, sensitive: false }, rules).effect;
}

describe("what * matches in a rule", () => {
  test("exec:npm test * covers bare npm test and npm test ARGS, not npm testx or npm run test:unit", () => {
    expect(decisionOf("exec:npm test *", "exec", "npm test")).toBe("allow");
    expect(decisionOf("exec:npm test *", "exec", "npm test -- --watch")).toBe("allow");
    expect(decisionOf("exec:npm test *", "exec", "npm testx")).toBe("ask");
    expect(decisionOf("exec:npm test *", "exec", "npm run test:unit")).toBe("ask");
  });

  test("exec:npm test* (no space) covers npm test and npm testx", () => {
    expect(decisionOf("exec:npm test*", "exec", "npm test")).toBe("allow");
    expect(decisionOf("exec:npm test*", "exec", "npm testx")).toBe("allow");
  });

  test("in paths * stays within one folder and ** crosses folders", () => {
    expect(decisionOf("write_file:src/*", "write_file", "src/a.js")).toBe("allow");
    expect(decisionOf("write_file:src/*", "write_file", "src/lib/a.js")).toBe("ask");
    expect(decisionOf("write_file:src/**", "write_file", "src/lib/a.js")).toBe("allow");
  });

  test("the docs page states these cases", () => {
    for (const phrase of [
      "`exec:npm test *` covers `npm test` and `npm test -- --watch`, but not",
      "`npm testx` or `npm run test:unit`, while `exec:npm test*` (no space) covers `npm testx` too",
      "`src/*` covers `src/a.js`, not `src/lib/a.js`; `src/**` covers both",
    ])
      expect(DOC.replace(/\n/g, " ")).toContain(phrase);
  });
});
