/**
 * bin/agent with no Bun anywhere (issue 21, newcomer item 9): it says what to install and exits 3; run
 * from a clone (a `.git` beside bin/), it also names the clone's own set-up command.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AGENT_BIN } from "../../cli/run-agent.ts";
import { processOutput } from "../../support/process-output.ts";

const dir = mkdtempSync(join(tmpdir(), "agent-nobun-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A copy of bin/agent in `root`/bin, with no node_modules: no Bun can be found from it. */
function launcherIn(root: string, clone: boolean): string {
  mkdirSync(join(root, "bin"), { recursive: true });
  if (clone) mkdirSync(join(root, ".git"));
  const bin = join(root, "bin", "agent");
  copyFileSync(AGENT_BIN, bin);
  return bin;
}

async function run(bin: string): Promise<{ code: number; stdout: string; stderr: string }> {
  // /usr/bin and /bin hold sh and its tools but no bun (the test checks that below).
  const proc = Bun.spawn(["/bin/sh", bin, "--version"], {
    env: { PATH: "/usr/bin:/bin" },
    stdout: "pipe",
    stderr: "pipe",
  });
  return processOutput(proc);
}

describe("bin/agent without Bun", () => {
  test("no bun on the test PATH", () => {
    expect(Bun.which("bun", { PATH: "/usr/bin:/bin" })).toBeNull();
  });

  test("from a clone: names npm run demo / npm install as well as npm install -g bun; exit 3", async () => {
    const root = join(dir, "clone");
    const result = await run(launcherIn(root, true));
    expect(result.code).toBe(3);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("Install it with 'npm install -g bun'");
    expect(result.stderr).toContain(
      `From a clone: 'npm run demo' (or 'npm install') in ${root} sets up its own copy.`,
    );
  });

  test("an installed package (no .git): no clone line", async () => {
    const result = await run(launcherIn(join(dir, "pkg"), false));
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("Install it with 'npm install -g bun'");
    expect(result.stderr).not.toContain("From a clone");
  });
});
