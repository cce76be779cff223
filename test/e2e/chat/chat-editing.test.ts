/**
 * Editing a chat message on a real pseudo-terminal (tmux, see tmux.ts): the cursor keys a shell user
 * presses (Home, End, Alt-B, Left, Ctrl-W) change the text where the cursor is, and the model receives
 * the edited message.
 */
import { expect, test } from "bun:test";
import type { FakeLlmServer } from "../../support/fake-llm-server.ts";
import { freshServer, lastUserText } from "../support.ts";
import { TEST_TIMEOUT_MS, withTerminal } from "../tmux.ts";

let server: FakeLlmServer;

freshServer((s) => {
  server = s;
});

test(
  "Home, End, Alt-B, Left and Ctrl-W edit the message where the cursor is; the model gets the edited text",
  async () => {
    server.enqueue({ text: "Edited message received." });
    await withTerminal(["chat", "--model", "best"], { server }, async (run) => {
      await run.waitForScreen(/Enter send/, "the input box");
      run.type("helo world");
      await run.waitForScreen(/› helo world/, "the typed text");
      run.press("Home");
      run.type("> ");
      await run.waitForScreen(/› > helo world/, "text inserted at the line's start");
      run.press("End");
      run.press("M-b");
      run.press("Left");
      run.press("Left");
      run.type("l");
      await run.waitForScreen(/› > hello world/, "a letter inserted inside a word");
      run.press("End");
      run.type(" extra");
      await run.waitForScreen(/› > hello world extra/, "text appended at the end");
      // One key at a time, each seen on screen: two presses sent at once can reach the app in one read.
      run.press("C-w");
      await run.waitForScreen(/› > hello world\s+│/, "a word deleted before the cursor");
      run.press("C-w");
      await run.waitForScreen(/› > hello\s+│/, "two words deleted before the cursor");
      run.type("there");
      await run.waitForScreen(/› > hello there/, "the edited message");
      run.press("Enter");
      await run.waitForScreen(/Edited message received\./, "the answer");
      expect(lastUserText(server, 0)).toContain("> hello there");
      expect(lastUserText(server, 0)).not.toContain("world");
      await run.waitForScreen(/Enter send/, "the input box again");
      run.send("/cost");
      await run.waitForScreen(/· 1 turn · /, "/cost counting one turn in the singular");
    });
  },
  TEST_TIMEOUT_MS,
);

test(
  "Tab completes /mo to /model; `/` alone and Enter lists the commands instead of reaching the model",
  async () => {
    await withTerminal(["chat"], { server }, async (run) => {
      await run.waitForScreen(/Enter send/, "the input box");
      run.type("/mo");
      await run.waitForScreen(/› \/mo/, "the typed prefix");
      run.press("Tab");
      await run.waitForScreen(/› \/model /, "the completed command");
      run.press("Enter");
      await run.waitForScreen(/model: anthropic:\S+/, "/model's answer");
      run.type("/");
      await run.waitForScreen(/› \/\s/, "a lone slash");
      run.press("Enter");
      await run.waitForScreen(/· \/compact\s+summarise/, "the command list /help prints");
      expect(server.requests).toHaveLength(0);
    });
  },
  TEST_TIMEOUT_MS,
);
