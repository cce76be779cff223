/**
 * `npm run demo` (scripts/demo.sh) as a newcomer runs it, with a skill and an agent spec of their own
 * already installed: the replay still passes (the demo runs with the project's own agents and skills
 * only), it prints no `continue:` line (its session is not kept, so there is nothing to continue), and
 * it leaves nothing behind: no session in the user's state folder and no temp folder.
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { cpSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { makeSandbox, type Sandbox } from "../../../cli/run-agent.ts";
import { processOutput } from "../../../support/process-output.ts";

const ROOT = resolve(import.meta.dir, "../../../..");

setDefaultTimeout(120_000);

let sandbox: Sandbox | undefined;
afterEach(() => sandbox?.cleanup());

/** A user agent spec a newcomer might have written: a sub-agent the root agent would be offered. */
const USER_AGENT = `name: reviewer
description: Reviews a change and lists problems.
version: 1
model: fast
capabilities: [read_file, grep]
system_prompt: You review changes.
`;

describe("npm run demo with the user's own skill and agent installed", () => {
  test("replays and passes, prints no continue: line, leaves no state and no temp folder", async () => {
    sandbox = makeSandbox();
    cpSync(
      join(ROOT, "examples/skills/changelog-entry"),
      join(sandbox.configDir, "agent/skills/changelog-entry"),
      {
        recursive: true,
      },
    );
    mkdirSync(join(sandbox.configDir, "agent/agents"), { recursive: true });
    writeFileSync(join(sandbox.configDir, "agent/agents/reviewer.yaml"), USER_AGENT);
    mkdirSync(join(sandbox.home, ".agents/skills"), { recursive: true });
    cpSync(join(ROOT, "examples/skills/changelog-entry"), join(sandbox.home, ".agents/skills/changelog"), {
      recursive: true,
    });
    const tmp = join(sandbox.dir, "tmp");
    mkdirSync(tmp);
    const proc = Bun.spawn(["sh", join(ROOT, "scripts/demo.sh")], {
      env: sandbox.env({ TMPDIR: tmp }),
      cwd: sandbox.dir,
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
    const result = await processOutput(proc);
    expect(result.stderr).not.toContain("does not match the recording");
    expect(result.stderr).toContain("Goodbye, Ada!"); // the node check ran
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Done.");
    expect(result.stderr).toContain("export function farewell(name)");
    expect(result.stderr).not.toContain("continue:");
    expect(readdirSync(sandbox.stateDir)).toEqual([]);
    expect(readdirSync(tmp)).toEqual([]);
  });
});
