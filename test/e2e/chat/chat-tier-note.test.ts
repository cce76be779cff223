/**
 * The chat's note about small talk on the fast tier (docs/chat.md "Which model answers") on a real
 * pseudo-terminal (tmux, see tmux.ts): said when the chat moves to the fast tier, not for every short
 * message in a row.
 */
import { expect, test } from "bun:test";
import type { FakeLlmServer } from "../../support/fake-llm-server.ts";
import { freshServer } from "../support.ts";
import { startTerminal, TEST_TIMEOUT_MS } from "../tmux.ts";

let server: FakeLlmServer;

freshServer((s) => {
  server = s;
});

test(
  "two short messages in a row: both on the fast tier, the note said once",
  async () => {
    server.enqueue({ text: "Hi there." }, { text: "You're welcome." });
    const run = startTerminal(["chat"], { server });
    try {
      await run.waitForScreen(/Enter send/, "the input box");
      run.type("hello");
      run.press("Enter");
      await run.waitForScreen(/Hi there\./, "the first answer");
      await run.waitForScreen(/Enter send/, "the input box again");
      run.type("thanks!");
      run.press("Enter");
      const screen = await run.waitForScreen(/You're welcome\./, "the second answer");
      const model = (index: number) =>
        (server.requests[index]?.body as { model?: string } | undefined)?.model;
      expect(model(1)).toBe(model(0));
      expect(screen.match(/tier fast for a short message/g)).toHaveLength(1);
    } finally {
      run.close();
    }
  },
  TEST_TIMEOUT_MS,
);
