/**
 * The README's first command replays examples/demo/demo.cassette.jsonl: this pins that the shipped
 * cassette still drives today's code to the same real outcome (a delegated edit, checked with node),
 * with no key and no network.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { cpSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { makeSandbox, runAgent, type Sandbox } from "../../../cli/run-agent.ts";

const DEMO = resolve(import.meta.dir, "../../../../examples/demo");
const GOAL =
  "Add a farewell(name) function to greet.js, in the same style as greet, and check that it works.";

let sandbox: Sandbox | undefined;
afterEach(() => sandbox?.cleanup());

describe("the shipped demo cassette", () => {
  test("replays offline: root delegates, greet.js gains farewell, the check runs, exit 0", async () => {
    sandbox = makeSandbox();
    const work = join(sandbox.dir, "work");
    cpSync(join(DEMO, "workspace"), work, { recursive: true });
    const result = await runAgent(
      ["run", "--replay", join(DEMO, "demo.cassette.jsonl"), "--cwd", work, "--on-ask", "allow", GOAL],
      { env: sandbox.env() },
    );
    expect(result.stderr).toContain("delegating to code-editor");
    expect(result.stderr).toContain("Goodbye, Ada!"); // the exec check really ran
    expect(result.code).toBe(0);
    expect(result.stdout.startsWith("Done.")).toBe(true);
    const greet = readFileSync(join(work, "greet.js"), "utf8");
    // biome-ignore lint/suspicious/noTemplateCurlyInString: greet.js's own source holds a template literal
    expect(greet).toContain("export function farewell(name) {\n  return `Goodbye, ${name}!`;\n}");
    const sessions = readdirSync(join(sandbox.stateDir, "agent", "sessions"));
    expect(sessions).toHaveLength(1);
  });

  test("without --on-ask allow the edit is denied and greet.js is untouched", async () => {
    sandbox = makeSandbox();
    const work = join(sandbox.dir, "work");
    cpSync(join(DEMO, "workspace"), work, { recursive: true });
    const before = readFileSync(join(work, "greet.js"), "utf8");
    const result = await runAgent(
      ["run", "--replay", join(DEMO, "demo.cassette.jsonl"), "--cwd", work, GOAL],
      {
        env: sandbox.env(),
      },
    );
    expect(result.stderr).toMatch(/denied edit_file greet\.js/);
    expect(readFileSync(join(work, "greet.js"), "utf8")).toBe(before);
  });
});
