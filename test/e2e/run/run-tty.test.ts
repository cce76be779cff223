/**
 * `agent run` on a real pseudo-terminal (tmux, see tmux.ts). Each case runs with and without CI=true (CI
 * sets it, and Ink would turn its live region off under CI by default).
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeLlmServer, FakeTurn } from "../../support/fake-llm-server.ts";
import { freshServer, onlyTranscriptText, toolResultsOf, transcriptRecords } from "../support.ts";
import { startTerminal, TEST_TIMEOUT_MS, type TerminalRun } from "../tmux.ts";

/** Each test's own fake server, so turns left over by a failed test never reach the next one. */
let server: FakeLlmServer;
freshServer((s) => {
  server = s;
});

/** `agent run GOAL FLAGS...` in a fresh tmux session. */
function startTerminalRun(goal: string, env: Record<string, string>, flags: string[] = []): TerminalRun {
  return startTerminal(["run", goal, ...flags], { server, env });
}

/** root delegates to code-editor, which asks to write hello.txt; then the child and root answer. */
function writeTurns(childAnswer: string, rootAnswer: string): FakeTurn[] {
  return [
    { toolCalls: [{ name: "code-editor", args: { goal: "Create hello.txt containing: Hello, world" } }] },
    { toolCalls: [{ name: "write_file", args: { path: "hello.txt", content: "Hello, world\n" } }] },
    { text: childAnswer },
    { text: rootAnswer },
  ];
}

const PROMPT = /wants to run write_file/;

for (const ci of [false, true]) {
  describe(ci ? "with CI=true" : "without CI", () => {
    const extraEnv: Record<string, string> = ci ? { CI: "true" } : {};

    test(
      "the approval prompt names agent, tool and path; y writes the file and the run exits 0",
      async () => {
        server.enqueue(...writeTurns("Created hello.txt.", "Done."));
        const run = startTerminalRun("Create hello.txt", extraEnv);
        try {
          const prompt = await run.waitForScreen(PROMPT, "the approval prompt");
          expect(prompt).toContain("code-editor wants to run write_file");
          expect(prompt).toContain("hello.txt");
          expect(prompt).toContain("+Hello, world");
          expect(prompt).toMatch(/y yes once/);
          // Nothing is written while the prompt waits.
          expect(existsSync(join(run.sandbox.workspace, "hello.txt"))).toBe(false);
          expect(await run.exitAfter("y")).toBe(0);
          expect(readFileSync(join(run.sandbox.workspace, "hello.txt"), "utf8")).toBe("Hello, world\n");
          const after = run.screen();
          expect(after).toContain("approved write_file hello.txt (once, by user)");
          expect(after).toContain("Done.");
          expect(after).not.toMatch(PROMPT);
          expect(server.pending()).toBe(0);
        } finally {
          run.close();
        }
      },
      TEST_TIMEOUT_MS,
    );

    test(
      "n denies the write: the file stays absent and the run still ends with exit 0",
      async () => {
        server.enqueue(...writeTurns("The user declined the write.", "Nothing was written."));
        const first = server.requests.length;
        const run = startTerminalRun("Create hello.txt", extraEnv);
        try {
          await run.waitForScreen(PROMPT, "the approval prompt");
          expect(await run.exitAfter("n")).toBe(0);
          expect(existsSync(join(run.sandbox.workspace, "hello.txt"))).toBe(false);
          expect(run.screen()).toContain("Nothing was written.");
          // The child was told that the user said no.
          expect(JSON.stringify(server.requests[first + 2]?.body)).toContain("Why: the user said no");
          expect(server.pending()).toBe(0);
        } finally {
          run.close();
        }
      },
      TEST_TIMEOUT_MS,
    );

    test(
      "f with feedback typed quickly (one input chunk): the write is denied, the model reads the feedback",
      async () => {
        server.enqueue(...writeTurns("Will use notes.md instead.", "Asked to use notes.md."));
        const first = server.requests.length;
        const run = startTerminalRun("Create hello.txt", extraEnv);
        try {
          await run.waitForScreen(PROMPT, "the approval prompt");
          // Typed quickly: f and the first words reach the prompt as one chunk of input.
          run.type("fuse notes.md");
          await run.waitForScreen(/feedback for the model .*: use notes\.md/, "the feedback line");
          run.type(" instead");
          await run.waitForScreen(/use notes\.md instead/, "the typed feedback");
          expect(await run.exitAfter("Enter")).toBe(0);
          expect(existsSync(join(run.sandbox.workspace, "hello.txt"))).toBe(false);
          expect(toolResultsOf(server.requests[first + 2])).toEqual([
            expect.stringContaining("with feedback: use notes.md instead"),
          ]);
        } finally {
          run.close();
        }
      },
      TEST_TIMEOUT_MS,
    );
    test(
      "Ctrl-C at the prompt interrupts the run: exit 130, nothing written, the prompt is gone",
      async () => {
        server.enqueue(...writeTurns("unused", "unused").slice(0, 2));
        const run = startTerminalRun("Create hello.txt", extraEnv);
        try {
          await run.waitForScreen(PROMPT, "the approval prompt");
          expect(await run.exitAfter("C-c")).toBe(130);
          expect(existsSync(join(run.sandbox.workspace, "hello.txt"))).toBe(false);
          const after = run.screen();
          expect(after).toContain("interrupting (press Ctrl-C again to force)");
          expect(after).toContain("interrupted (aborted)");
          // Ink redrew its live region away: no piece of the prompt box is left behind.
          expect(after).not.toMatch(PROMPT);
          expect(after).not.toContain("╭");
        } finally {
          run.close();
        }
      },
      TEST_TIMEOUT_MS,
    );
  });
}

test(
  "an explicit --on-ask decides even on a terminal: no prompt, the write happens",
  async () => {
    server.enqueue(...writeTurns("Created hello.txt.", "Done."));
    const run = startTerminalRun("Create hello.txt", {}, ["--on-ask", "allow"]);
    try {
      expect(await run.exitStatus()).toBe(0);
      expect(readFileSync(join(run.sandbox.workspace, "hello.txt"), "utf8")).toBe("Hello, world\n");
      const after = run.screen();
      expect(after).toContain("approved write_file hello.txt (once, by --on-ask)");
      expect(after).not.toMatch(PROMPT);
    } finally {
      run.close();
    }
  },
  TEST_TIMEOUT_MS,
);

test(
  "a approves for the session: the rule it adds lets the next write of that path through unasked",
  async () => {
    server.enqueue(
      { toolCalls: [{ name: "code-editor", args: { goal: "Write hello.txt twice" } }] },
      { toolCalls: [{ name: "write_file", args: { path: "hello.txt", content: "one\n" } }] },
      { toolCalls: [{ name: "write_file", args: { path: "hello.txt", content: "two\n" } }] },
      { text: "Wrote it twice." },
      { text: "Done." },
    );
    const run = startTerminalRun("Write hello.txt twice", {});
    try {
      const prompt = await run.waitForScreen(PROMPT, "the approval prompt");
      // What a adds, in words, then the rule on a line of its own (inside the box's borders).
      expect(prompt).toContain("a adds this rule for the session (write hello.txt):");
      expect(prompt).toMatch(/│ write_file:hello\.txt\s+│/);
      expect(await run.exitAfter("a")).toBe(0);
      expect(readFileSync(join(run.sandbox.workspace, "hello.txt"), "utf8")).toBe("two\n");
      const records = transcriptRecords(onlyTranscriptText(run.sandbox));
      expect(records.filter((r) => r.kind === "approval_request")).toHaveLength(1);
      // The two writes; the delegation's own tool_end carries kind "agent".
      const writes = records.filter((r) => r.kind === "tool_end" && r.data.kind === undefined);
      expect(writes.filter((r) => r.data.isError === false)).toHaveLength(2);
    } finally {
      run.close();
    }
  },
  TEST_TIMEOUT_MS,
);
