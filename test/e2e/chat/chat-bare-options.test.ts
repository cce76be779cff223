/**
 * `agent` with options and no command is the chat with those options, as `claude -c` and `claude --model`
 * open the interactive session: on a terminal (tmux, see tmux.ts) `agent -c` continues the workspace's
 * latest session; off a terminal it says the chat needs one (exit 2), not "unknown option".
 */
import { expect, test } from "bun:test";
import type { FakeLlmServer } from "../../support/fake-llm-server.ts";
import { anthropicEnv, freshServer, makeE2eSandbox, runAgentIn } from "../support.ts";
import { startTerminal, TEST_TIMEOUT_MS } from "../tmux.ts";

let server: FakeLlmServer;

freshServer((s) => {
  server = s;
});

test(
  "`agent -c` on a terminal continues the latest session in the chat",
  async () => {
    const sandbox = makeE2eSandbox();
    server.enqueue({ text: "The answer of the run." });
    const first = await runAgentIn(sandbox, ["run", "the goal of the run"], anthropicEnv(sandbox, server));
    expect(first.code).toBe(0);
    const run = startTerminal(["-c"], { server, sandbox });
    try {
      const screen = await run.waitForScreen(/Enter send/, "the chat's input box");
      expect(screen).toMatch(/agent chat · continuing \(2 earlier messages\)/);
      expect(screen).toContain("The answer of the run.");
      run.press("C-d");
      expect(await run.exitStatus()).toBe(0);
    } finally {
      run.close();
    }
  },
  TEST_TIMEOUT_MS,
);

test("`agent --model best` off a terminal is the chat's own error (exit 2), not an unknown option", async () => {
  const sandbox = makeE2eSandbox();
  try {
    const result = await runAgentIn(sandbox, ["--model", "best"], anthropicEnv(sandbox, server));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("agent chat needs a terminal");
    expect(result.stderr).not.toContain("unknown option");
  } finally {
    sandbox.cleanup();
  }
});
