/**
 * The first run (issue 21, item 8) on a terminal: with no key, `agent` (a chat) shows the first-run screen
 * with its Ollama line naming chat, not run, and exits 3; tmux gives it the terminal. The same screen of
 * `agent run` without a terminal (stderr, exit 3, the JSON error, a detected Ollama) is checked in the test
 * process: test/cli/run/first-run.test.ts.
 */
import { describe, expect, test } from "bun:test";
import { closedPort } from "../../support/closed-port.ts";
import { startFakeLlmServer } from "../../support/fake-llm-server.ts";
import { startTerminal, TEST_TIMEOUT_MS } from "../tmux.ts";

describe("no key at all", () => {
  test(
    "agent (a chat, on a terminal): the screen's Ollama line names chat (agent -m ollama:MODEL), not run",
    async () => {
      // The fake server only satisfies the terminal helper: with no key, nothing reaches it.
      const server = await startFakeLlmServer();
      const env = { ANTHROPIC_API_KEY: "", OLLAMA_HOST: `127.0.0.1:${await closedPort()}` };
      const run = startTerminal([], { server, env });
      try {
        const screen = await run.waitForScreen(/EXIT=\d+/, "the first-run screen and the exit status");
        expect(screen).toContain("no model provider is set up");
        expect(screen).toContain("start Ollama, then  agent -m ollama:MODEL");
        expect(screen).not.toContain("agent run -m");
        expect(await run.exitStatus()).toBe(3);
        expect(server.requests).toHaveLength(0);
      } finally {
        run.close();
        await server.close();
      }
    },
    TEST_TIMEOUT_MS,
  );
});
