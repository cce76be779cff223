/**
 * `agent` with options and no command is the chat with those options, as `claude -c` and `claude --model`
 * open the interactive session: on a terminal (tmux, see tmux.ts) `agent -c` continues the workspace's
 * latest session; off a terminal it says the chat needs one (exit 2), not "unknown option".
 */
import { expect, test } from "bun:test";
import type { FakeLlmServer } from "../../support/fake-llm-server.ts";
import { freshServer, runInFreshSandbox, sandboxAfterRun } from "../support.ts";
import { TEST_TIMEOUT_MS, withTerminal } from "../tmux.ts";

let server: FakeLlmServer;

freshServer((s) => {
  server = s;
});

test(
  "`agent -c` on a terminal continues the latest session in the chat",
  async () => {
    const sandbox = await sandboxAfterRun(server, "the goal of the run", "The answer of the run.");
    await withTerminal(["-c"], { server, sandbox }, async (run) => {
      const screen = await run.waitForScreen(/Enter send/, "the chat's input box");
      expect(screen).toMatch(/agent chat · continuing \(2 earlier messages\)/);
      expect(screen).toContain("The answer of the run.");
      expect(await run.exitAfter("C-d")).toBe(0);
    });
  },
  TEST_TIMEOUT_MS,
);

test("`agent --model best` off a terminal is the chat's own error (exit 2), not an unknown option", async () => {
  const result = await runInFreshSandbox(server, ["--model", "best"]);
  expect(result.code).toBe(2);
  expect(result.stderr).toContain("agent chat needs a terminal");
  expect(result.stderr).not.toContain("unknown option");
});
