/**
 * Cassettes that come with a repository are read like every other file from it: a FIFO (which would block
 * the read past every timeout) or a symlink to /dev/zero (which reads until memory runs out) is refused
 * at once with an error naming it, by `agent eval --replay` before any task starts and by
 * `agent run --replay` itself. Driven in this process as the user types the commands.
 */
import { expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { inProcessFixture } from "../run/in-process.ts";

const fixture = inProcessFixture();

function mkfifo(path: string): void {
  const made = Bun.spawnSync(["mkfifo", path]);
  if (made.exitCode !== 0) throw new Error(`mkfifo ${path}: ${made.stderr.toString()}`);
}

test("agent eval --replay refuses a FIFO cassette and one linked to /dev/zero, naming both, before any task runs", async () => {
  const { workspace } = fixture.sandbox;
  mkdirSync(join(workspace, "fixture"));
  writeFileSync(join(workspace, "fixture", "a.txt"), "a\n");
  const cassettes = join(workspace, "cassettes");
  mkdirSync(cassettes);
  mkfifo(join(cassettes, "fifo.cassette.jsonl"));
  symlinkSync("/dev/zero", join(cassettes, "zero.cassette.jsonl"));
  const suite = join(workspace, "suite.yaml");
  writeFileSync(
    suite,
    [
      "tasks:",
      "  - {id: fifo, goal: Say done., workspace: fixture}",
      "  - {id: zero, goal: Say done., workspace: fixture}",
      "",
    ].join("\n"),
  );
  const result = await fixture.run(["eval", suite, "--replay"]);
  expect(result.code).toBe(2);
  expect(result.stderr).toContain(`${join(cassettes, "fifo.cassette.jsonl")} is a FIFO`);
  expect(result.stderr).toContain(`${join(cassettes, "zero.cassette.jsonl")} is a character device`);
  expect(result.stderr).toContain("not a regular file; refused");
});

test("agent run --replay refuses them too: exit 2 with the reason, no hang, no unbounded read", async () => {
  const { workspace } = fixture.sandbox;
  const fifo = join(workspace, "run.cassette.jsonl");
  mkfifo(fifo);
  const zero = join(workspace, "zero.cassette.jsonl");
  symlinkSync("/dev/zero", zero);
  const fromFifo = await fixture.run(["run", "--replay", fifo, "Say done."]);
  expect(fromFifo.code).toBe(2);
  expect(fromFifo.stderr).toContain(
    `cannot read cassette ${fifo}: it is a FIFO, not a regular file; refused`,
  );
  const fromZero = await fixture.run(["run", "--replay", zero, "Say done."]);
  expect(fromZero.code).toBe(2);
  expect(fromZero.stderr).toContain(
    `cannot read cassette ${zero}: it is a character device, not a regular file; refused`,
  );
});
