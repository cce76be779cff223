/**
 * The Ink view on a real terminal (tmux, see tmux.ts): markdown answers on a TTY and the raw answer when
 * stdout is piped, a running command's live tail, and a resize while the approval prompt is up.
 */
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeLlmServer } from "../../support/fake-llm-server.ts";
import { expectRenderedMarkdown, MARKDOWN_ANSWER } from "../markdown-answer.ts";
import { freshServer } from "../support.ts";
import { TEST_TIMEOUT_MS, tmux, withTerminal } from "../tmux.ts";

let server: FakeLlmServer;
freshServer((s) => {
  server = s;
});

test(
  "the answer renders as markdown on a terminal",
  async () => {
    server.enqueue({ text: MARKDOWN_ANSWER });
    await withTerminal(["run", "report"], { server }, async (run) => {
      expect(await run.exitStatus()).toBe(0);
      expectRenderedMarkdown(run.screen());
    });
  },
  TEST_TIMEOUT_MS,
);

test(
  "with stdout piped the answer is the raw text, byte for byte",
  async () => {
    server.enqueue({ text: MARKDOWN_ANSWER });
    await withTerminal(["run", "report"], { server, pipe: " > answer.txt" }, async (run) => {
      expect(await run.exitStatus()).toBe(0);
      const answer = await Bun.file(join(run.sandbox.workspace, "answer.txt")).text();
      expect(answer).toBe(`${MARKDOWN_ANSWER}\n`);
    });
  },
  TEST_TIMEOUT_MS,
);

test(
  "a running exec shows its live last lines; when done, its line count and last lines",
  async () => {
    // The command prints twelve lines, then waits for the test to let it finish.
    const command = "seq 1 12 | sed 's/^/row /'; while [ ! -f go ]; do sleep 0.05; done; echo finished";
    server.enqueue({ toolCalls: [{ name: "exec", args: { command } }] }, { text: "Ran it." });
    await withTerminal(
      ["run", "run the rows", "--agent", "command-runner", "--allow", "exec"],
      {
        server,
      },
      async (run) => {
        const live = await run.waitForScreen(/row 12/, "the live tail of the running command");
        expect(live).toMatch(/· 12 lines/);
        expect(live).toMatch(/^\s+row 8$/m);
        expect(live).not.toMatch(/^\s+row 7$/m);
        writeFileSync(join(run.sandbox.workspace, "go"), "");
        expect(await run.exitStatus()).toBe(0);
        const after = run.screen();
        expect(after).toMatch(/exit code 0, 13 lines/);
        expect(after).toMatch(/^\s+row 12\n\s+finished$/m);
      },
    );
  },
  TEST_TIMEOUT_MS,
);

test(
  "a resize while the approval prompt is up leaves no torn box in the scrollback",
  async () => {
    server.enqueue(
      { toolCalls: [{ name: "write_file", args: { path: "hello.txt", content: "Hello, world\n" } }] },
      { text: "Done." },
    );
    await withTerminal(["run", "write it", "--agent", "code-editor"], { server }, async (run) => {
      await run.waitForScreen(/wants to run write_file/, "the approval prompt");
      tmux("resize-window", "-t", run.name, "-x", "50", "-y", "40");
      await run.waitForScreen(/^╭─{48}╮$/m, "the prompt redrawn at 50 columns");
      tmux("resize-window", "-t", run.name, "-x", "120", "-y", "40");
      await run.waitForScreen(/^╭─{118}╮$/m, "the prompt redrawn at 120 columns");
      expect(await run.exitAfter("y")).toBe(0);
      const scrollback = run.scrollback();
      // The prompt's rounded box is gone whole: no corner or border of it survives anywhere.
      expect(scrollback).not.toMatch(/[╭╮╰╯]/);
      expect(scrollback).not.toContain("wants to run write_file");
      // The history printed before the resize is there once.
      expect(scrollback.match(/▸ code-editor: write it/g)).toHaveLength(1);
      expect(scrollback).toContain("Done.");
    });
  },
  TEST_TIMEOUT_MS,
);
