/**
 * A chat's `/plan GOAL` on a real terminal (tmux, see tmux.ts), the model scripted on the fake server: the
 * message runs in plan mode (read-only tools, nothing written), the plan is put to the user, and y carries
 * it out in the same conversation under the normal rules; the chat goes on afterwards.
 */
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeLlmServer } from "../../support/fake-llm-server.ts";
import { freshServer } from "../support.ts";
import { startTerminal, TEST_TIMEOUT_MS } from "../tmux.ts";

let server: FakeLlmServer;
freshServer((s) => {
  server = s;
});

const INPUT = /Enter send/;
const PLAN = { summary: "Create hello.txt.", steps: ["Write hello.txt"], files: ["hello.txt"], commands: [] };

test(
  "/plan GOAL shows a plan, writes nothing until approved, then carries it out in the conversation",
  async () => {
    server.enqueue({ text: JSON.stringify(PLAN) });
    const run = startTerminal(["chat", "--agent", "code-editor"], { server });
    try {
      await run.waitForScreen(INPUT, "the input box");
      run.send("/plan say hello in a file");
      await run.waitForScreen(/has a plan \(nothing has changed yet\)/, "the plan review");
      expect(existsSync(join(run.sandbox.workspace, "hello.txt"))).toBe(false);
      expect(JSON.stringify(server.requests[0]?.body)).not.toContain('"write_file"');
      server.enqueue(
        { toolCalls: [{ name: "write_file", args: { path: "hello.txt", content: "Hello\n" } }] },
        { text: "Wrote hello.txt." },
      );
      run.press("y");
      await run.waitForScreen(/wants to run write_file/, "the write's approval prompt");
      run.press("y");
      await run.waitForScreen(/Wrote hello\.txt\./, "the answer");
      expect(readFileSync(join(run.sandbox.workspace, "hello.txt"), "utf8")).toBe("Hello\n");
      expect(JSON.stringify(server.requests[1]?.body)).toContain("The user approved your plan.");
      expect(await run.exitAfter("C-d")).toBe(0);
    } finally {
      run.close();
    }
  },
  TEST_TIMEOUT_MS,
);
