/**
 * `agent run --replay` on a terminal. A replayed run costs nothing (docs/sessions-and-replay.md), and the
 * live status line says so while the run goes, as the final summary does: it counts with the model
 * client's prices, not the catalog's. A cassette recorded for another goal is named once on the screen.
 * Runs are recorded first (non-interactive, through the fake server, as a user with a key would).
 */
import { describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { FakeLlmServer } from "../../support/fake-llm-server.ts";
import { anthropicEnv, type E2eSandbox, freshServerAndSandbox, runAgentIn } from "../support.ts";
import { startTerminal, TEST_TIMEOUT_MS } from "../tmux.ts";

let server: FakeLlmServer;
let sandbox: E2eSandbox;
freshServerAndSandbox((s, b) => {
  server = s;
  sandbox = b;
});

const GOAL = "Create hello.txt";
const USAGE = { input: 20_000, output: 2_000 };
const PROMPT = /wants to run write_file/;
/** A status-line cost above zero, as formatCost prints it (`$0.0352`, `$1.20`). */
const SOME_COST = /\$(0\.0*[1-9]|[1-9])/;

describe("agent run --replay on a terminal", () => {
  test(
    "the live status line shows $0.0000 while a replay runs, as its summary does",
    async () => {
      server.enqueue(
        {
          toolCalls: [{ name: "code-editor", args: { goal: "Create hello.txt containing: Hello" } }],
          usage: USAGE,
        },
        {
          toolCalls: [{ name: "write_file", args: { path: "hello.txt", content: "Hello\n" } }],
          usage: USAGE,
        },
        { text: "Created hello.txt.", usage: USAGE },
        { text: "Done.", usage: USAGE },
      );
      const cassette = join(sandbox.dir, "run.cassette.jsonl");
      const recorded = await runAgentIn(
        sandbox,
        ["run", "--on-ask", "allow", "--record", cassette, GOAL],
        anthropicEnv(sandbox, server),
      );
      expect(recorded.code).toBe(0);
      // The goal's message lists the workspace's entries: the replay starts from the same (empty) one.
      rmSync(join(sandbox.workspace, "hello.txt"));

      const run = startTerminal(["run", GOAL, "--replay", cassette], { server, sandbox });
      try {
        const screen = await run.waitForScreen(PROMPT, "the approval prompt of the replayed run");
        // Two replayed turns have counted tokens by now; the cost beside them is nothing.
        expect(screen).toMatch(/ tokens · \$0\.0000/);
        expect(screen).not.toMatch(SOME_COST);
        expect(await run.exitAfter("y")).toBe(0);
        expect(run.screen()).not.toMatch(SOME_COST);
      } finally {
        run.close();
      }
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "a cassette recorded for another goal: exit 2, the difference named once on the screen",
    async () => {
      server.enqueue({ text: "Hi.", usage: USAGE });
      const cassette = join(sandbox.dir, "hi.cassette.jsonl");
      const recorded = await runAgentIn(
        sandbox,
        ["run", "--record", cassette, "Say hi"],
        anthropicEnv(sandbox, server),
      );
      expect(recorded.code).toBe(0);
      const run = startTerminal(["run", "Say bye", "--replay", cassette], { server, sandbox });
      try {
        expect(await run.exitStatus()).toBe(2);
        const all = run.scrollback().replace(/\n/g, "");
        expect(all.split("does not match the recording")).toHaveLength(2);
      } finally {
        run.close();
      }
    },
    TEST_TIMEOUT_MS,
  );
});
