/**
 * What `agent chat` leaves on a real terminal (tmux) and what its status line says: after /quit, Ctrl-D or
 * Ctrl-C twice the last frame holds no input box and no key hints of a running turn; the status line names
 * the model the last message ran on and follows `/model NAME`; `/clear` names the conversation it left and
 * the way back is printed when the chat ends.
 */
import { expect, test } from "bun:test";
import type { FakeLlmServer } from "../../support/fake-llm-server.ts";
import { freshServer } from "../support.ts";
import { TEST_TIMEOUT_MS, withTerminal } from "../tmux.ts";

let server: FakeLlmServer;
freshServer((s) => {
  server = s;
});

/** The input box is on screen (its key hint line). */
const INPUT = /Enter send/;
/** The hints of the box shown under a running turn. */
const TURN_HINTS = /Enter queues|Esc interrupts the turn/;

/** The status line: the last non-empty line of the screen. */
function statusLine(screen: string): string {
  return (
    screen
      .split("\n")
      .filter((line) => line.trim() !== "")
      .at(-1) ?? ""
  );
}

for (const [how, keys] of [
  ["/quit", ["/quit"]],
  ["Ctrl-D", ["C-d"]],
  ["Ctrl-C twice", ["C-c", "C-c"]],
] as const) {
  test(
    `after ${how} the last frame has no input box and no running turn's key hints`,
    async () => {
      server.enqueue({ text: "Hello there." });
      await withTerminal(["chat", "hello"], { server }, async (run) => {
        await run.waitForScreen(/Hello there\./, "the answer");
        await run.waitForScreen(INPUT, "the input box");
        if (how === "/quit") run.send("/quit");
        const code = how === "/quit" ? await run.exitStatus() : await run.exitAfter(...keys);
        expect(code).toBe(0);
        const after = run.screen();
        expect(after).toContain("Hello there.");
        expect(after).not.toMatch(TURN_HINTS);
        expect(after).not.toMatch(INPUT);
        expect(after).toMatch(/continue: agent chat --resume \S+/);
      });
    },
    TEST_TIMEOUT_MS,
  );
}

test(
  "the status line names the model the last message ran on, and the one /model NAME chose",
  async () => {
    server.enqueue({ text: "Hi! How can I help?" });
    await withTerminal(["chat"], { server }, async (run) => {
      await run.waitForScreen(INPUT, "the input box");
      run.send("hello");
      await run.waitForScreen(/Hi! How can I help\?/, "the greeting's answer");
      await run.waitForScreen(INPUT, "the input box again");
      const small = server.requests[0]?.body as { model?: string } | undefined;
      expect(statusLine(run.screen())).toContain(String(small?.model));
      // `/model` alone says what the next message runs on, and that the last one ran elsewhere.
      run.send("/model");
      const said = await run.waitForScreen(/model: anthropic:\S+ \(from/, "the /model answer");
      expect(said).toContain(`the last message ran on ${small?.model}`);
      run.send("/model good");
      const chosen = await run.waitForScreen(/model for the next messages: anthropic:\S+/, "the /model note");
      const good = /model for the next messages: anthropic:(\S+)/.exec(chosen)?.[1];
      expect(good).toBeDefined();
      expect(good).not.toBe(small?.model);
      await run.waitForScreen(new RegExp(`${good}.*tokens`), "the status line naming the chosen model");
      expect(statusLine(run.screen())).toContain(String(good));
      expect(await run.exitAfter("C-d")).toBe(0);
    });
  },
  TEST_TIMEOUT_MS,
);

test(
  "/clear names the conversation it left; /quit then prints the way back to it",
  async () => {
    server.enqueue({ text: "First answer." });
    await withTerminal(["chat", "first question"], { server }, async (run) => {
      await run.waitForScreen(/First answer\./, "the answer");
      await run.waitForScreen(INPUT, "the input box");
      run.send("/clear");
      const cleared = await run.waitForScreen(/new conversation · session \S+/, "the /clear note");
      const left = /the cleared one is session (\S+)/.exec(cleared)?.[1];
      expect(left).toBeDefined();
      run.send("/quit");
      expect(await run.exitStatus()).toBe(0);
      expect(run.screen()).toMatch(new RegExp(`continue: agent chat --resume \\S*${left}`));
    });
  },
  TEST_TIMEOUT_MS,
);
