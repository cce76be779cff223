/**
 * Typing while a chat turn runs, on a real pseudo-terminal (tmux, see tmux.ts): the input box stays under
 * the running turn; a message sent there is queued and reaches the model as the next message when the
 * turn ends; Esc interrupts the turn and puts a queued message back into the box, unsent.
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
  "a message typed and sent during a turn is queued, then sent when the turn ends",
  async () => {
    // The first answer streams until the test lets it finish: the server holds it after its first words.
    server.enqueue(
      { text: "First answer, streaming slowly", hangAfterEvents: 4 },
      { text: "Answer to the queued message." },
    );
    await withTerminal(["chat", "--model", "best", "tell me something long"], { server }, async (run) => {
      await run.waitForScreen(/First answer/, "the first answer streaming");
      await run.waitForScreen(/Enter queues the message/, "the input box under the running turn");
      run.type("and then this");
      await run.waitForScreen(/› and then this/, "the text typed during the turn");
      run.press("Enter");
      await run.waitForScreen(/queued: and then this/, "the queued message");
      expect(server.requests).toHaveLength(1);
      // Esc interrupts the turn; the queued message goes back into the box instead of being sent.
      run.press("Escape");
      await run.waitForScreen(/Enter send/, "the input box after the interruption");
      await run.waitForScreen(/› and then this/, "the queued text back in the box");
      expect(server.requests).toHaveLength(1);
      run.press("Enter");
      await run.waitForScreen(/Answer to the queued message\./, "the answer to the message");
      expect(lastUserText(server, 1)).toContain("and then this");
      expect(run.screen()).toContain("▸ you: and then this");
    });
  },
  TEST_TIMEOUT_MS,
);

test(
  "a queued message is sent by itself when the running turn ends",
  async () => {
    server.enqueue(
      { text: ["Counting", " one", " two", " three", " four", " five"], chunkDelayMs: 400 },
      { text: "Queued one answered." },
    );
    await withTerminal(["chat", "--model", "best", "count slowly"], { server }, async (run) => {
      await run.waitForScreen(/Counting/, "the first answer streaming");
      run.type("next question");
      await run.waitForScreen(/› next question/, "the typed text");
      run.press("Enter");
      await run.waitForScreen(/Queued one answered\./, "the queued message's answer");
      expect(server.requests).toHaveLength(2);
      expect(lastUserText(server, 1)).toContain("next question");
      const screen = run.screen();
      // Its turn came after the first one ended: the first answer is whole above it.
      expect(screen.indexOf("five")).toBeLessThan(screen.indexOf("▸ you: next question"));
    });
  },
  TEST_TIMEOUT_MS,
);
