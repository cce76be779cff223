/**
 * `/model` with a pasted multi-line argument on a real terminal (tmux): the model name is the first line,
 * the chat says the rest was ignored, and an error names the bad value on one line.
 */
import { expect, test } from "bun:test";
import type { FakeLlmServer } from "../../support/fake-llm-server.ts";
import { freshServer } from "../support.ts";
import { TEST_TIMEOUT_MS, withTerminal } from "../tmux.ts";

let server: FakeLlmServer;
freshServer((s) => {
  server = s;
});

const INPUT = /Enter send/;

test(
  "/model with a second line: the first line switches the model, the rest is said to be ignored; a bad name's error is one line",
  async () => {
    await withTerminal(["chat"], { server }, async (run) => {
      await run.waitForScreen(INPUT, "the input box");
      // Ctrl-J (a literal newline) is a newline in the input box: one input of two lines, as a fast paste.
      run.type("/model best\nhello");
      run.press("Enter");
      let screen = await run.waitForScreen(/model for the next messages: /, "the model switched");
      expect(screen).toContain("/model takes one line: 1 more line was ignored (not sent)");
      run.type("/model no-such-model-xyz\nhello there");
      run.press("Enter");
      screen = await run.waitForScreen(/\/model no-such-model-xyz: /, "the bad name's error");
      const line = screen.split("\n").find((l) => l.includes("/model no-such-model-xyz: ")) ?? "";
      expect(line).not.toContain("hello");
      // The line after the error is not the pasted rest spilling over.
      const after = screen.split("\n")[screen.split("\n").indexOf(line) + 1] ?? "";
      expect(after).not.toMatch(/^\s*hello there/);
      expect(screen).not.toMatch(/^[^›]*hello there/m);
      expect(server.requests).toHaveLength(0);
      expect(await run.exitAfter("C-d")).toBe(0);
    });
  },
  TEST_TIMEOUT_MS,
);
