/**
 * Hooks around tool calls in `agent helper --tools` as bin/agent against the fake server (the helper
 * command has no in-process entry yet): a before_tool hook that exits 2 blocks the call. Hooks in
 * `agent run`: test/cli/run/hooks.test.ts.
 */
import { expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeLlmServer } from "../../support/fake-llm-server.ts";
import { anthropicEnv, type E2eSandbox, freshServerAndSandbox, runAgentIn } from "../support.ts";

let server: FakeLlmServer;
let sandbox: E2eSandbox;
freshServerAndSandbox((s, b) => {
  server = s;
  sandbox = b;
});

const TEST_TIMEOUT_MS = 60_000;

function writeUserConfig(yaml: string): void {
  mkdirSync(join(sandbox.configDir, "agent"), { recursive: true });
  writeFileSync(join(sandbox.configDir, "agent", "config.yaml"), yaml);
}

/** The text of every tool result the model was sent in request `index`. */
function toolResultsSent(index: number): string {
  return JSON.stringify(server.requests[index]?.body ?? null);
}

test(
  "agent helper --tools exec runs the same hooks: a before_tool hook that exits 2 blocks the call",
  async () => {
    mkdirSync(join(sandbox.workspace, "build"));
    writeUserConfig(
      'hooks:\n  before_tool:\n    - match: "exec:rm *"\n      command: "echo no rm here >&2; exit 2"\n',
    );
    server.enqueue(
      { toolCalls: [{ name: "exec", args: { command: "ls && rm -rf build" } }] },
      { text: "Kept." },
    );
    const result = await runAgentIn(
      sandbox,
      ["helper", "--tools", "exec", "tidy up"],
      anthropicEnv(sandbox, server),
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("Kept.\n");
    expect(existsSync(join(sandbox.workspace, "build"))).toBe(true);
    expect(toolResultsSent(1)).toContain("no rm here");
  },
  TEST_TIMEOUT_MS,
);
