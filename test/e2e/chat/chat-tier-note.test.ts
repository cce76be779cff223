/**
 * The chat's note about small talk on the fast tier (docs/chat.md "Which model answers") on a real
 * pseudo-terminal (tmux, see tmux.ts): said when the chat moves to the fast tier, not for every short
 * message in a row.
 */
import { expect, test } from "bun:test";
import type { FakeLlmServer } from "../../support/fake-llm-server.ts";
import { freshServer } from "../support.ts";
import { TEST_TIMEOUT_MS, withTerminal } from "../tmux.ts";

let server: FakeLlmServer;

freshServer((s) => {
  server = s;
});

test(
  "two short messages in a row: both on the fast tier, the note said once",
  async () => {
    server.enqueue({ text: "Hi there." }, { text: "You're welcome." });
    await withTerminal(["chat"], { server }, async (run) => {
      await run.waitForScreen(/Enter send/, "the input box");
      run.send("hello");
      await run.waitForScreen(/Hi there\./, "the first answer");
      await run.waitForScreen(/Enter send/, "the input box again");
      run.send("thanks!");
      const screen = await run.waitForScreen(/You're welcome\./, "the second answer");
      const model = (index: number) =>
        (server.requests[index]?.body as { model?: string } | undefined)?.model;
      expect(model(1)).toBe(model(0));
      expect(screen.match(/tier fast for a short message/g)).toHaveLength(1);
    });
  },
  TEST_TIMEOUT_MS,
);
