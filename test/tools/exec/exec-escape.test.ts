/**
 * Processes an exec call starts do not outlive it, including those that leave its process group: a
 * `setsid` child, a double fork (`( setsid ... & )`), `nohup ... &`. Written from the attacker's side: the
 * commands are what a prompt-injected model would run to leave something behind. Linux (/proc) only: the
 * sweep that finds them reads /proc/<pid>/environ (src/tools/exec/process-sweep.ts).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { execTool } from "../../../src/tools/exec/exec.ts";
import { cleanup, contextFor, goneSoon, isAlive, tempDir } from "../helpers.ts";

const root = await tempDir("agent-exec-escape-");
const started: number[] = [];
afterAll(async () => {
  // A failing run must not leave its sleepers behind: end them by pid.
  for (const pid of started) if (isAlive(pid)) process.kill(pid, "SIGKILL");
  await cleanup(root);
});

async function pidFrom(file: string): Promise<number> {
  const pid = Number((await readFile(join(root, file), "utf8")).trim());
  started.push(pid);
  return pid;
}

/** Three ways out of the process group, each writing its sleeper's pid to a file. */
const ESCAPES =
  "setsid sh -c 'sleep 300 & echo $! > setsid.pid'; " +
  "( setsid sh -c 'sleep 301 & echo $! > double.pid' & ); " +
  "nohup sleep 302 > /dev/null 2>&1 & echo $! > nohup.pid; " +
  "while [ ! -s setsid.pid ] || [ ! -s double.pid ]; do sleep 0.05; done; echo started";

describe("exec leaves nothing running", () => {
  test("setsid, double-forked and nohup'd processes are gone when the call ends", async () => {
    const out = await execTool.run({ command: ESCAPES }, await contextFor(root));
    expect(out.modelText).toContain("started");
    const pids = [await pidFrom("setsid.pid"), await pidFrom("double.pid"), await pidFrom("nohup.pid")];
    for (const pid of pids) expect(await goneSoon(pid)).toBe(true);
  }, 30_000);

  test("an aborted call ends its setsid daemon too", async () => {
    const controller = new AbortController();
    const running = execTool.run(
      { command: "setsid sh -c 'sleep 303 & echo $! > aborted.pid'; sleep 120" },
      await contextFor(root, { signal: controller.signal }),
    );
    // Wait for the daemon to exist (the event), not for a time.
    for (let i = 0; i < 400 && !existsSync(join(root, "aborted.pid")); i++) await Bun.sleep(25);
    controller.abort();
    const out = await running;
    expect(out.modelText).toContain("killed: aborted");
    expect(await goneSoon(await pidFrom("aborted.pid"))).toBe(true);
  }, 30_000);
});
