/**
 * The rule "yes for this session" adds, as a person sees it in the approval box on a real terminal
 * (tmux): said in words, then the rule itself on a line of its own as written in config and after
 * --allow (`exec:node -e "import('./greet.js')…"`: not shell-quoted, no `'\''`, not wrapped), and no
 * wider than the call (never `exec:node -e *`). Pressing a runs the command; the same call again in
 * the session needs no prompt.
 */
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeLlmServer } from "../../support/fake-llm-server.ts";
import { freshServer, toolResultsOf } from "../support.ts";
import { TEST_TIMEOUT_MS, withTerminal } from "../tmux.ts";

let server: FakeLlmServer;
freshServer((s) => {
  server = s;
});

const COMMAND = `node -e "import('./greet.js').then(m=>console.log(m.greet('x')))"`;

/** The screen's lines without the box's borders and padding. */
function boxLines(screen: string): string[] {
  return screen.split("\n").map((line) => line.replace(/^[│\s]+|[│\s]+$/g, ""));
}

test(
  "the approval box shows the session rule in words and as one unquoted, unwrapped line; a grants exactly it",
  async () => {
    server.enqueue(
      { toolCalls: [{ name: "command-runner", args: { goal: "print greet('x')" } }] },
      { toolCalls: [{ name: "exec", args: { command: COMMAND } }] },
      { toolCalls: [{ name: "exec", args: { command: COMMAND } }] },
      { text: "Ran it twice." },
      { text: "Done." },
    );
    await withTerminal(
      ["run", "greet x"],
      {
        server,
        prepare: (sandbox) =>
          writeFileSync(join(sandbox.workspace, "greet.js"), 'export const greet = (n) => "hi " + n;\n'),
      },
      async (run) => {
        const box = await run.waitForScreen(/a adds this rule for the session/, "the approval box");
        expect(box).toContain("a adds this rule for the session (run this exact command):");
        expect(boxLines(box)).toContain(`exec:${COMMAND}`);
        expect(box).not.toContain("'\\''");
        expect(box).not.toContain("node -e *");
        run.press("a");
        expect(await run.exitStatus()).toBe(0);
        // Granted for the session: the second, identical call ran too (without a prompt: one key only).
        expect(toolResultsOf(server.requests[2]).join("\n")).toContain("hi x");
        expect(toolResultsOf(server.requests[3]).join("\n")).toContain("hi x");
        expect(server.pending()).toBe(0);
      },
    );
  },
  TEST_TIMEOUT_MS,
);
