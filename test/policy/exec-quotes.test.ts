/**
 * Exec rules people can read: a suggested or granted rule for a command holding `'` is written with
 * double quotes (`exec:node -e "import('./greet.js')"`), and such a rule, given to --allow or config,
 * matches exactly the command it names: nothing wider (a quoted `*` stays a literal, an expansion stays
 * as written).
 */
import { describe, expect, test } from "bun:test";
import { evaluate } from "../../src/policy/evaluate.ts";
import { canonicalExecPattern, readableExecPattern } from "../../src/policy/exec-quotes.ts";
import { literalPattern } from "../../src/policy/match.ts";
import { parseRule } from "../../src/policy/rules.ts";
import { splitShell } from "../../src/policy/shell-split.ts";
import type { PolicyRequest } from "../../src/policy/types.ts";

const exec = (command: string): PolicyRequest => ({
  tool: "exec",
  targets: [command],
  readOnly: false,
  sensitive: false,
});
const allows = (rule: string, command: string): boolean =>
  evaluate(exec(command), [parseRule(rule, "allow", "flag")]).effect === "allow";
/** The splitter's text of a one-command line. */
const rendered = (command: string): string => {
  const split = splitShell(command);
  if (!split.ok) throw new Error(split.reason);
  return split.texts[0] ?? "";
};

const GREET = `node -e "import('./greet.js').then(m=>console.log(m.greet('x')))"`;

describe("exec rules in double quotes", () => {
  test("the rule for a command holding ' reads as people write it, with no '\\''", () => {
    expect(literalPattern("exec", rendered(GREET))).toBe(GREET);
    expect(readableExecPattern(rendered(GREET))).toBe(GREET);
  });

  test("written that way, it allows exactly that command, and a hand-written spelling too", () => {
    expect(allows(`exec:${GREET}`, GREET)).toBe(true);
    expect(
      allows(
        `exec:${GREET}`,
        `node -e 'import('\\''./greet.js'\\'').then(m=>console.log(m.greet('\\''x'\\'')))'`,
      ),
    ).toBe(true);
    expect(allows(`exec:${GREET}`, `node -e "import('./other.js')"`)).toBe(false);
    expect(allows(`exec:${GREET}`, `${GREET} && rm -rf x`)).toBe(false);
    expect(allows(`exec:echo "it's"`, `echo "it's"`)).toBe(true);
    expect(allows(`exec:echo "a b"`, "echo 'a b'")).toBe(true);
  });

  test("nothing wider: a quoted glob stays literal, an expansion or escape is left as written", () => {
    expect(canonicalExecPattern(`echo "a*"`)).toBe(`echo "a*"`);
    expect(allows(`exec:echo "a*"`, "echo abc")).toBe(false);
    expect(canonicalExecPattern(`echo "$(id)"`)).toBe(`echo "$(id)"`);
    expect(canonicalExecPattern(`echo "a\\"b"`)).toBe(`echo "a\\"b"`);
    // A word whose text double quotes would change keeps the splitter's single quotes.
    expect(readableExecPattern(`echo 'it'\\''s $HOME'`)).toBe(`echo 'it'\\''s $HOME'`);
    expect(readableExecPattern(`echo 'say "hi"'`)).toBe(`echo 'say "hi"'`);
  });

  test("a rule with ; && | or a redirection outside quotes is still refused", () => {
    expect(() => parseRule(`exec:echo "a" && rm x`, "allow", "flag")).toThrow(/one simple command/);
    expect(() => parseRule(`exec:node -e "a=>b"`, "allow", "flag")).not.toThrow();
  });
});
