/**
 * `agent chat` keys and orientation on a real pseudo-terminal (tmux, see tmux.ts): the opening screen, the
 * `/` list and suggestions, Ctrl-C twice to quit, Esc interrupting a turn (the next message reaching the
 * model on its own), Esc at an approval, /clear, `-c` scrollback and ↑, and small talk on the fast tier.
 */
import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { FakeLlmServer } from "../../support/fake-llm-server.ts";
import { freshServer, sandboxAfterRun } from "../support.ts";
import { TEST_TIMEOUT_MS, withTerminal } from "../tmux.ts";

let server: FakeLlmServer;
freshServer((s) => {
  server = s;
});

/** The input box is on screen (its key hint line). */
const INPUT = /Enter send/;

function modelOf(index: number): string | undefined {
  return (server.requests[index]?.body as { model?: string } | undefined)?.model;
}

test(
  "the chat opens with the model, tier, workspace and hint; / lists commands as you type; /mdoel suggests /model; Ctrl-C clears, then twice quits",
  async () => {
    await withTerminal(["chat"], { server }, async (run) => {
      const opening = await run.waitForScreen(INPUT, "the input box");
      expect(opening).toMatch(/model anthropic:\S+ \(tier best · \/model to change\)/);
      expect(opening).toMatch(/workspace \S+/);
      expect(opening).toContain("/help · Esc interrupts · Ctrl-C twice quits");
      run.type("/");
      await run.waitForScreen(/\/clear/, "the command list");
      expect(run.screen()).toMatch(/\/model/);
      run.type("mo");
      await run.waitForScreen(/› \/mo/, "the filtered input");
      const filtered = await run.waitForScreen(/\/model/, "the filtered list");
      expect(filtered).not.toMatch(/\/clear/);
      // Ctrl-C on a non-empty input clears it (the chat stays).
      run.press("C-c");
      await run.waitForScreen(/│ ›\s+│/, "the cleared input");
      run.send("/mdoel");
      await run.waitForScreen(/unknown command \/mdoel: did you mean \/model\?/, "the suggestion");
      await run.waitForScreen(INPUT, "the input box again");
      run.press("C-c");
      await run.waitForScreen(/Press Ctrl-C again to exit/, "the second Ctrl-C hint");
      expect(await run.exitAfter("C-c")).toBe(0);
      expect(server.requests).toHaveLength(0);
    });
  },
  TEST_TIMEOUT_MS,
);

test(
  "Esc interrupts the running turn: back to the input with the conversation kept, the next message reaches the model on its own; ↑ recalls; Esc keeps a draft",
  async () => {
    server.enqueue(
      { text: "Once upon a time there was a very slow story", hangAfterEvents: 4 },
      { text: "Line one done." },
    );
    await withTerminal(["chat", "tell me a slow story"], { server }, async (run) => {
      // The reply has started (its request reached the server), and hangs there.
      await run.waitForScreen(/Once upon a time/, "the running turn's text");
      run.press("Escape");
      await run.waitForScreen(/interrupted/, "the interrupted turn");
      await run.waitForScreen(INPUT, "the input box after the interruption");
      run.send("line one");
      await run.waitForScreen(/Line one done\./, "the next answer");
      await run.waitForScreen(INPUT, "the input box again");
      const second = JSON.stringify(server.requests[1]?.body);
      expect(second).toContain("tell me a slow story");
      expect(second).toContain("line one");
      expect(second).not.toContain("storyNew goal");
      // The new message is a user turn of its own, after a reply that says the last one was interrupted.
      const body = server.requests[1]?.body as
        | { messages?: { role: string; content: unknown }[] }
        | undefined;
      const messages = body?.messages ?? [];
      const last = messages[messages.length - 1];
      expect(last?.role).toBe("user");
      expect(JSON.stringify(last?.content)).toContain("line one");
      expect(JSON.stringify(last?.content)).not.toContain("slow story");
      expect(messages[messages.length - 2]?.role).toBe("assistant");
      expect(JSON.stringify(messages[messages.length - 2]?.content)).toContain("interrupted by the user");
      // ↑ recalls the last input; Esc leaves the text in the box.
      run.press("Up");
      await run.waitForScreen(/› line one/, "the recalled input");
      run.press("Escape");
      run.type(" again");
      await run.waitForScreen(/› line one again/, "the draft kept through Esc");
      // Ctrl-C clears the draft; on the empty box it asks for a second one.
      run.press("C-c");
      await run.waitForScreen(/│ ›\s+│/, "the cleared input");
      run.press("C-c");
      await run.waitForScreen(/Press Ctrl-C again to exit/, "the second Ctrl-C hint");
      expect(await run.exitAfter("C-c")).toBe(0);
    });
  },
  TEST_TIMEOUT_MS,
);

test(
  "Esc at an approval is no, as the prompt says: nothing written, the model reads the denial, the turn ends normally",
  async () => {
    server.enqueue(
      { toolCalls: [{ name: "code-editor", args: { goal: "Create a.txt" } }] },
      { toolCalls: [{ name: "write_file", args: { path: "a.txt", content: "Hello\n" } }] },
      { text: "The write was denied." },
      { text: "Not created: you said no." },
    );
    await withTerminal(["chat", "write a.txt"], { server }, async (run) => {
      await run.waitForScreen(/Esc.{0,3} no/, "the approval prompt offering Esc as no");
      run.press("Escape");
      await run.waitForScreen(/Not created: you said no\./, "the answer after the denial");
      await run.waitForScreen(INPUT, "the input box");
      expect(existsSync(join(run.sandbox.workspace, "a.txt"))).toBe(false);
      expect(run.scrollback()).not.toContain("interrupted");
      // The model got the denial as the call's result and was asked again.
      expect(JSON.stringify(server.requests[2]?.body)).toMatch(/denied/);
      expect(server.pending()).toBe(0);
      expect(await run.exitAfter("C-c", "C-c")).toBe(0);
    });
  },
  TEST_TIMEOUT_MS,
);

test(
  "a greeting runs on the fast tier, a request about code on the default (best); /clear clears the screen and the status line",
  async () => {
    server.enqueue({ text: "Hi! How can I help?" }, { text: "Fixed in greet.js." });
    await withTerminal(["chat"], { server }, async (run) => {
      const opening = await run.waitForScreen(INPUT, "the input box");
      const best = /model anthropic:(\S+)/.exec(opening)?.[1];
      run.send("hello");
      await run.waitForScreen(/Hi! How can I help\?/, "the greeting's answer");
      await run.waitForScreen(/tier fast for a short message/, "the tier note");
      await run.waitForScreen(INPUT, "the input box again");
      run.send("fix the bug in greet.js");
      await run.waitForScreen(/Fixed in greet\.js\./, "the second answer");
      await run.waitForScreen(INPUT, "the input box once more");
      expect(modelOf(1)).toBe(best);
      expect(modelOf(0)).not.toBe(best);
      expect(run.screen()).not.toMatch(/ 0 tokens/);
      run.send("/clear");
      const cleared = await run.waitForScreen(/new conversation · session \S+/, "the /clear note");
      expect(cleared).not.toContain("Hi! How can I help?");
      expect(cleared).not.toContain("Fixed in greet.js.");
      expect(cleared).toMatch(/ 0 tokens/);
      expect(await run.exitAfter("C-c", "C-c")).toBe(0);
    });
  },
  TEST_TIMEOUT_MS,
);

test(
  "agent chat -c shows the earlier conversation as scrollback and ↑ recalls its inputs",
  async () => {
    const sandbox = await sandboxAfterRun(server, "the goal of the run", "The answer of the run.");
    await withTerminal(["chat", "-c"], { server, sandbox }, async (run) => {
      const screen = await run.waitForScreen(INPUT, "the input box");
      expect(screen).toMatch(/continuing \(2 earlier messages\)/);
      expect(screen).toMatch(/you: the goal of the run/);
      expect(screen).toContain("The answer of the run.");
      run.press("Up");
      await run.waitForScreen(/› the goal of the run/, "the recalled input");
      expect(await run.exitAfter("C-c", "C-c", "C-c")).toBe(0);
    });
  },
  TEST_TIMEOUT_MS,
);
