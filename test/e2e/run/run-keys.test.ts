/**
 * Keys in `agent run` on a real pseudo-terminal (tmux, see tmux.ts), as the peers have them: Esc interrupts
 * the run (exit 130 with its summary and resume line), a second Ctrl-C leaves with the same end and no
 * frozen spinner, and `agent -p` never prompts.
 */
import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { FakeLlmServer, FakeTurn } from "../../support/fake-llm-server.ts";
import { freshServer } from "../support.ts";
import { TEST_TIMEOUT_MS, withTerminal } from "../tmux.ts";

let server: FakeLlmServer;
freshServer((s) => {
  server = s;
});

/** A reply that starts and then never ends (the connection stays open): the run waits on the model. */
const SLOW: FakeTurn = { text: "Once upon a time there was a very slow story", hangAfterEvents: 4 };
/** The reply has started streaming (its request reached the server), and hangs there. */
const RUNNING = /Once upon a time/;
/** Braille spinner frames: none may stay on the screen once the run has ended. */
const SPINNER = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/;

test(
  "Esc interrupts `agent run`: exit 130, the interrupted summary and the resume line, no spinner left",
  async () => {
    server.enqueue(SLOW);
    await withTerminal(["run", "tell me a slow story"], { server }, async (run) => {
      await run.waitForScreen(RUNNING, "the running turn");
      expect(await run.exitAfter("Escape")).toBe(130);
      const after = run.screen();
      expect(after).toContain("interrupted (aborted)");
      expect(after).toMatch(/continue: agent run --resume \S+/);
      expect(after).not.toMatch(SPINNER);
    });
  },
  TEST_TIMEOUT_MS,
);

test(
  "Esc at an approval in `agent run` is no, as the prompt says: the run goes on and ends with 0, nothing written",
  async () => {
    server.enqueue(
      { toolCalls: [{ name: "code-editor", args: { goal: "Create a.txt" } }] },
      { toolCalls: [{ name: "write_file", args: { path: "a.txt", content: "Hello\n" } }] },
      { text: "The write was denied." },
      { text: "Not created: you said no." },
    );
    await withTerminal(["run", "write a.txt"], { server }, async (run) => {
      await run.waitForScreen(/Esc.{0,3} no/, "the approval prompt offering Esc as no");
      run.press("Escape");
      expect(await run.exitStatus()).toBe(0);
      const after = run.scrollback();
      expect(after).toContain("Not created: you said no.");
      expect(after).not.toContain("interrupted");
      expect(existsSync(join(run.sandbox.workspace, "a.txt"))).toBe(false);
      expect(server.pending()).toBe(0);
    });
  },
  TEST_TIMEOUT_MS,
);

test(
  "Ctrl-C twice during a run exits 130 after the summary and the resume line, with no frozen spinner frame",
  async () => {
    server.enqueue(SLOW);
    await withTerminal(["run", "tell me a slow story"], { server }, async (run) => {
      await run.waitForScreen(RUNNING, "the running turn");
      expect(await run.exitAfter("C-c", "C-c")).toBe(130);
      const after = run.screen();
      expect(after).toMatch(/■ interrupted \(aborted\)/);
      expect(after).toMatch(/continue: agent run --resume \S+/);
      expect(after).not.toMatch(SPINNER);
    });
  },
  TEST_TIMEOUT_MS,
);

test(
  "`agent -p` on a terminal never prompts: the write is denied by default and the run goes on",
  async () => {
    server.enqueue(
      { toolCalls: [{ name: "code-editor", args: { goal: "Create hello.txt" } }] },
      { toolCalls: [{ name: "write_file", args: { path: "hello.txt", content: "Hello\n" } }] },
      { text: "I could not write it." },
      { text: "Not created: the write was denied." },
    );
    await withTerminal(["-p", "Create hello.txt"], { server }, async (run) => {
      expect(await run.exitStatus()).toBe(0);
      const after = run.scrollback();
      expect(after).not.toMatch(/wants to run write_file/);
      expect(after).toContain("Not created: the write was denied.");
      expect(after).toMatch(/denied/);
      expect(existsSync(join(run.sandbox.workspace, "hello.txt"))).toBe(false);
      expect(server.pending()).toBe(0);
    });
  },
  TEST_TIMEOUT_MS,
);
