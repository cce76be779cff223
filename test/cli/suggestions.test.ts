/**
 * Errors that point at the fix, as a user meets them (the CLI in this process, no terminal): a bare word
 * that is no command says how to run it as a goal; a misspelt --version, tier or eval check field gets
 * its "did you mean"; a mistyped model lists every tier; an eval suite that is not there is "no such
 * file" (exit 2), not an invalid suite.
 */
import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runAgentIn } from "../e2e/support.ts";
import { inProcessFixture } from "./run/in-process.ts";

const fixture = inProcessFixture();

test("agent hi: unknown command, and how to run it as a goal; a near miss of a command is suggested instead", async () => {
  const hi = await fixture.run(["hi"]);
  expect(hi.code).toBe(2);
  expect(hi.stderr).toContain("unknown command 'hi'");
  expect(hi.stderr).toContain('to run it as a goal: agent run "hi"');
  const words = await fixture.run(["fix", "the", "tests"]);
  expect(words.stderr).toContain('agent run "fix the tests"');
  const near = await fixture.run(["rnu", "x"]);
  expect(near.stderr).toContain("Did you mean run?");
  expect(near.stderr).not.toContain("to run it as a goal");
  expect(hi.requests).toHaveLength(0);
});

test("--versoin suggests --version (not an unknown chat option)", async () => {
  const result = await fixture.run(["--versoin"]);
  expect(result.code).toBe(2);
  expect(result.stderr).toContain("unknown option '--versoin'");
  expect(result.stderr).toContain("Did you mean --version?");
});

test("-m fats suggests fast, and the tier list names every tier", async () => {
  const result = await fixture.run(["run", "-m", "fats", "hi"]);
  expect(result.code).toBe(2);
  expect(result.stderr).toContain('did you mean "fast"?');
  for (const tier of ["fast", "good", "best", "smart", "auto"]) expect(result.stderr).toContain(tier);
  expect(result.requests).toHaveLength(0);
});

test("agent eval nosuch.yaml is no such file, exit 2; a check's rn: suggests run:", async () => {
  const missing = await fixture.run(["eval", "nosuch.yaml"]);
  expect(missing.code).toBe(2);
  expect(missing.stderr).toContain("no such file: nosuch.yaml");
  expect(missing.stderr).not.toContain("invalid");
  // The problems print on the process's stderr: run as a process.
  writeFileSync(
    join(fixture.sandbox.workspace, "suite.yaml"),
    'tasks:\n  - id: a\n    goal: hi\n    workspace: .\n    checks:\n      - rn: "true"\n',
  );
  const suite = await runAgentIn(fixture.sandbox, ["eval", "suite.yaml"], fixture.sandbox.env());
  expect(suite.code).toBe(3);
  expect(suite.stderr).toContain('suite.yaml:6: tasks[0].checks[0].rn: unknown field; did you mean "run"?');
});

test("config: every problem at once, one per line in line order, with did you mean (model: → models:)", async () => {
  const { sandbox } = fixture;
  mkdirSync(join(sandbox.configDir, "agent"), { recursive: true });
  writeFileSync(
    join(sandbox.configDir, "agent", "config.yaml"),
    "model:\n  fast: x\ndefaults:\n  agnt: root\n  on_ask: maybe\n",
  );
  const result = await fixture.run(["run", "hi"]);
  expect(result.code).toBe(3);
  const lines = result.stderr.trimEnd().split("\n");
  expect(lines[0]).toBe("agent: 3 problems:");
  expect(lines[1]).toMatch(/config\.yaml line 1: model: unknown field; did you mean "models"\?/);
  expect(lines[2]).toMatch(/config\.yaml line 4: defaults\.agnt: unknown field; did you mean "agent"\?/);
  expect(lines[3]).toMatch(/config\.yaml line 5: defaults\.on_ask: expected/);
  expect(result.stderr).not.toContain("more)");
  expect(result.requests).toHaveLength(0);
});

test("spec errors: one per line in file order, in agent run and agents validate alike", async () => {
  const { sandbox } = fixture;
  const dir = join(sandbox.workspace, ".agent", "agents");
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "bad.yaml"),
    "name: bad\ndescription: x\nsystem_prompt: hi\nmodel: fast\ncapabilities:\n  - read_fil\n  - exce\nconstraints:\n  max_turn: 3\n",
  );
  const order = (text: string): number[] =>
    [...text.matchAll(/bad\.yaml:(\d+):/g)].map((match) => Number(match[1]));
  const run = await fixture.run(["run", "--agent", "bad", "hi"]);
  expect(run.code).toBe(3);
  expect(order(run.stderr)).toEqual([6, 7, 9]);
  // Each problem on a line of its own.
  expect(run.stderr.split("\n").filter((line) => line.includes("bad.yaml:"))).toHaveLength(3);
  const validate = await fixture.run(["agents", "validate"]);
  expect(validate.code).toBe(3);
  expect(order(validate.stderr)).toEqual([6, 7, 9]);
});
