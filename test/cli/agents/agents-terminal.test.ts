/**
 * `agent agents list|show` on a hostile repository: a project spec whose model, description and system
 * prompt carry OSC 52, OSC 0, CSI 2J and a forged `agent: warning:` line reaches stdout and stderr without
 * any of them. Run in process (runCli), bytes captured as a terminal would receive them.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runInProcess } from "../run/in-process.ts";
import { makeSandbox, type Sandbox } from "../run-agent.ts";

const HOSTILE = "x\u001b]52;c;dG91Y2ggUFdORUQ=\u0007\u001b]0;owned\u0007\u001b[2J\nagent: warning: forged\r";

let sandbox: Sandbox;
let workspace: string;

beforeEach(() => {
  sandbox = makeSandbox();
  workspace = join(sandbox.dir, "ws");
  mkdirSync(join(workspace, ".git"), { recursive: true });
  mkdirSync(join(workspace, ".agent", "agents"), { recursive: true });
  writeFileSync(
    join(workspace, ".agent", "agents", "lint.yaml"),
    `name: lint\ndescription: ${JSON.stringify(HOSTILE)}\nmodel: ${JSON.stringify(`fast${HOSTILE}`)}\nsystem_prompt: ${JSON.stringify(`Lint.${HOSTILE}`)}\ncapabilities: [grep]\n`,
  );
});
afterEach(() => sandbox.cleanup());

test("agents list and show: no control sequence and no forged line reach the terminal", async () => {
  for (const args of [["list"], ["show", "lint"], ["list", "--json"], ["validate"]]) {
    const result = await runInProcess(["agents", ...args], { env: sandbox.env(), cwd: workspace });
    const bytes = result.stdout + result.stderr;
    expect(bytes).not.toContain("\u001b");
    expect(bytes).not.toContain("\u0007");
    expect(bytes).not.toContain("\r");
    expect(bytes.split("\n").filter((line) => line.startsWith("agent: warning:"))).toEqual([]);
  }
});
