/**
 * A mistyped subcommand or name gets its "did you mean", as `rnu` and `--alow` do (the CLI in this
 * process, no terminal): a group with a default `list` (skills, agents, sessions, worktrees), a command
 * with options only (models), mcp, eval's `merge`; and an unknown name in `agents show`, `skills show`,
 * `sessions show` and `--agent` where the known names are listed.
 */
import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { inProcessFixture } from "./run/in-process.ts";

const fixture = inProcessFixture();

test("an unknown subcommand of every command group suggests the nearest one", async () => {
  for (const group of ["skills", "agents", "sessions", "worktrees"]) {
    const result = await fixture.run([group, "lsit"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`(Did you mean agent ${group} list?)`);
  }
  const remove = await fixture.run(["worktrees", "remov"]);
  expect(remove.stderr).toContain("(Did you mean agent worktrees remove?)");
  const models = await fixture.run(["models", "refresh"]);
  expect(models.code).toBe(2);
  expect(models.stderr).toContain("(Did you mean agent models --refresh?)");
  const mcp = await fixture.run(["mcp", "lsit"]);
  expect(mcp.code).toBe(2);
  expect(mcp.stderr).toContain("Did you mean list?");
  const merge = await fixture.run(["eval", "merj"]);
  expect(merge.code).toBe(2);
  expect(merge.stderr).toContain("no such file: merj (did you mean agent eval merge?)");
  // A word far from every subcommand gets no guess.
  const far = await fixture.run(["skills", "zzzzzz"]);
  expect(far.stderr).not.toContain("Did you mean");
});

test("agents show, --agent and skills show suggest the nearest name of their own agents and skills", async () => {
  const { workspace } = fixture.sandbox;
  mkdirSync(join(workspace, ".agent", "agents"), { recursive: true });
  writeFileSync(
    join(workspace, ".agent", "agents", "reviewer.yaml"),
    "name: reviewer\ndescription: Reviews a change.\nsystem_prompt: Review it.\nmodel: fast\ncapabilities: [read_file]\n",
  );
  const show = await fixture.run(["agents", "show", "revewer"]);
  expect(show.code).toBe(2);
  expect(show.stderr).toContain('unknown agent "revewer" (did you mean "reviewer"?)');
  const run = await fixture.run(["run", "--agent", "revewer", "hi"]);
  expect(run.stderr).toContain('(did you mean "reviewer"?)');
  expect(run.requests).toHaveLength(0);
  mkdirSync(join(workspace, ".agents", "skills", "changelog-entry"), { recursive: true });
  writeFileSync(
    join(workspace, ".agents", "skills", "changelog-entry", "SKILL.md"),
    "---\nname: changelog-entry\ndescription: Writes a changelog entry.\n---\nWrite it.\n",
  );
  const skill = await fixture.run(["skills", "show", "changelog-entyr"]);
  expect(skill.code).toBe(2);
  expect(skill.stderr).toContain('no skill named "changelog-entyr" (did you mean "changelog-entry"?)');
});

test("sessions show: a mistyped short id suggests the session's", async () => {
  fixture.server.enqueue({ text: "Hello." });
  const done = await fixture.run(["run", "say hello"]);
  expect(done.code).toBe(0);
  const id = /continue: agent run --resume (\w+)/.exec(done.stderr)?.[1] ?? "";
  expect(id).toHaveLength(6);
  const typo = `${id.slice(0, 5)}${id.endsWith("z") ? "y" : "z"}`;
  const show = await fixture.run(["sessions", "show", typo]);
  expect(show.code).toBe(2);
  expect(show.stderr).toContain(`unknown session "${typo}" (did you mean "${id}"?)`);
});
