/**
 * docs/plan-mode.md's keyless command, taken from the page and run as printed (sh, from the repository
 * root, `agent` on the PATH) with no key and no server: it replays the shipped
 * examples/demo/plan.cassette.jsonl on examples/demo/workspace, prints the plan, changes nothing and
 * writes no state.
 */
import { afterEach, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { AGENT_BIN, makeSandbox, type Sandbox } from "../../../cli/run-agent.ts";
import { processOutput } from "../../../support/process-output.ts";

const ROOT = resolve(import.meta.dir, "../../../..");
const DOC = join(ROOT, "docs", "plan-mode.md");
const GREET = join(ROOT, "examples", "demo", "workspace", "greet.js");

/** The one line of an sh block of docs/plan-mode.md that replays the shipped plan cassette. */
function documentedCommand(): string {
  const blocks = [...readFileSync(DOC, "utf8").matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1] ?? "");
  const command = blocks
    .flatMap((block) => block.split("\n"))
    .find((line) => line.includes("--replay examples/demo/plan.cassette.jsonl"));
  if (command === undefined) throw new Error(`${DOC}: no sh line replays examples/demo/plan.cassette.jsonl`);
  return command;
}

let sandbox: Sandbox | undefined;
afterEach(() => sandbox?.cleanup());

test("the documented command prints the recorded plan with no key, changes nothing, exit 0", async () => {
  sandbox = makeSandbox();
  const before = readFileSync(GREET, "utf8");
  const env = sandbox.env();
  env.PATH = `${dirname(AGENT_BIN)}:${env.PATH}`;
  const proc = Bun.spawn(["sh", "-c", documentedCommand()], {
    cwd: ROOT,
    env,
    stdout: "pipe",
    stderr: "pipe",
  });
  const result = await processOutput(proc);
  expect(result.stderr).toContain("delegating to code-reader");
  expect(result.stderr).toContain("$0.0000");
  expect(result.code).toBe(0);
  expect(result.stdout).toStartWith("Plan: Add farewell(name) to greet.js");
  expect(result.stdout).toContain("Files to change:\n- greet.js");
  expect(readFileSync(GREET, "utf8")).toBe(before);
  expect(existsSync(join(sandbox.stateDir, "agent", "sessions"))).toBe(false);
});
