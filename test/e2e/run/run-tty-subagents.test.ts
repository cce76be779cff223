/**
 * Runs that read like Claude Code's, on a real terminal (tmux, issue 21 item 7): parallel sub-agents of
 * one name told apart with each one's lines together under it and its answer shown once; an applied edit
 * keeps its collapsed diff; a denial is one line with its reason.
 */
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeLlmServer } from "../../support/fake-llm-server.ts";
import { type E2eSandbox, freshServer } from "../support.ts";
import { TEST_TIMEOUT_MS, withTerminal } from "../tmux.ts";

let server: FakeLlmServer;
freshServer((s) => {
  server = s;
});

/** Resolves once the server has received `count` requests (checked as requests arrive, every 20 ms). */
function requestsReached(count: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setInterval(() => {
      if (server.requests.length >= count) {
        clearInterval(timer);
        resolve();
      }
    }, 20);
  });
}

test(
  "two parallel code-readers: told apart, each one's lines together under it, each answer once",
  async () => {
    // Both children's first turns are held until both have asked, so each reads exactly one file.
    const both = requestsReached(3);
    server.enqueue(
      {
        toolCalls: [
          { name: "code-reader", args: { goal: "read a.txt" } },
          { name: "code-reader", args: { goal: "read b.txt" } },
        ],
      },
      { toolCalls: [{ name: "read_file", args: { path: "a.txt" } }], holdUntil: both },
      { toolCalls: [{ name: "read_file", args: { path: "b.txt" } }], holdUntil: both },
      { text: "Read it." },
      { text: "Read it." },
      { text: "Both files read." },
    );
    const prepare = (sandbox: E2eSandbox): void => {
      writeFileSync(join(sandbox.workspace, "a.txt"), "alpha\n");
      writeFileSync(join(sandbox.workspace, "b.txt"), "beta\n");
    };
    await withTerminal(["run", "read both files"], { server, prepare }, async (run) => {
      expect(await run.exitStatus()).toBe(0);
      const lines = run.scrollback().split("\n");
      const at = (pattern: RegExp): number => lines.findIndex((line) => pattern.test(line));
      // The second is named #2 from its delegate line on; the first is #1 once there are two.
      const open2 = at(/▸ root: delegating to code-reader #2: read [ab]\.txt/);
      const close2 = at(/◂ code-reader #2: success \(stop\)/);
      const open1 = at(/▸ root: delegating to code-reader: read [ab]\.txt/);
      const close1 = at(/◂ code-reader #1: success \(stop\)/);
      for (const index of [open1, close1, open2, close2]) expect(index).toBeGreaterThan(-1);
      // Each group is contiguous: the delegate line, one read_file line, the answer, the return line.
      for (const [open, close] of [
        [open1, close1],
        [open2, close2],
      ] as const) {
        expect(close).toBeGreaterThan(open);
        const group = lines.slice(open + 1, close).join("\n");
        expect(group.match(/✓ read_file [ab]\.txt/g) ?? []).toHaveLength(1);
        expect(group.match(/Read it\./g) ?? []).toHaveLength(1);
        expect(group).not.toContain("delegating");
      }
      // Each sub-agent's answer shows once (its message), not again on its return line.
      expect(lines.filter((line) => line.includes("Read it."))).toHaveLength(2);
      expect(lines.join("\n")).toContain("Both files read.");
      // The usage rows of the summary tell them apart too.
      expect(lines.some((line) => /^\s+code-reader #1 claude-/.test(line))).toBe(true);
      expect(lines.some((line) => /^\s+code-reader #2 claude-/.test(line))).toBe(true);
    });
  },
  TEST_TIMEOUT_MS,
);

test(
  "an applied edit keeps its collapsed diff; a denied command is one line with the rule that refused it",
  async () => {
    const before = `${Array.from({ length: 8 }, (_, i) => `line ${i + 1}`).join("\n")}\n`;
    const after = before.toUpperCase();
    server.enqueue(
      {
        toolCalls: [
          { name: "edit_file", args: { path: "notes.txt", old_string: before, new_string: after } },
          { name: "exec", args: { command: "rm -rf build" } },
        ],
      },
      { text: "Edited; the removal was denied." },
    );
    await withTerminal(
      ["run", "edit notes", "--agent", "code-editor", "--allow", "edit_file", "--deny", "exec:rm *"],
      { server, prepare: (sandbox) => writeFileSync(join(sandbox.workspace, "notes.txt"), before) },
      async (run) => {
        expect(await run.exitStatus()).toBe(0);
        const screen = run.scrollback();
        expect(screen).toMatch(/✓ edit_file notes\.txt/);
        expect(screen).toMatch(/^\s+-line 1$/m);
        expect(screen).toMatch(/^\s+-line 6$/m);
        expect(screen).not.toMatch(/^\s+-line 7$/m);
        expect(screen).toMatch(/^\s+… 10 more lines$/m);
        expect(screen).not.toContain("+LINE 8");
        // In the history, one line (the closing summary lists the denial again, with what would allow it).
        const denial = screen
          .split("\n")
          .filter((line) => line.includes("rm -rf build") && !line.includes(": exec rm"));
        expect(denial).toEqual(["  ✗ denied exec $ rm -rf build (by rule exec:rm *)"]);
        expect(screen).not.toContain("DENIED:");
      },
    );
  },
  TEST_TIMEOUT_MS,
);
