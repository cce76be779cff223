/**
 * `agent run --plan` on a real terminal (tmux, see tmux.ts), the model scripted on the fake server: the plan
 * is shown and nothing changes while it waits (every file's bytes hashed); y carries it out in the same
 * session (the plan and the plan-mode conversation in context, write tools back, approvals as usual); f
 * carries it out with the user's typed changes; n changes nothing and exits 0.
 */
import { expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import type { FakeLlmServer } from "../../support/fake-llm-server.ts";
import { freshServer } from "../support.ts";
import { startTerminal, TEST_TIMEOUT_MS, type TerminalRun } from "../tmux.ts";

let server: FakeLlmServer;
freshServer((s) => {
  server = s;
});

const PLAN = {
  summary: "Create hello.txt with a greeting.",
  steps: ["Write hello.txt"],
  files: ["hello.txt"],
  commands: [],
};
const REVIEW = /has a plan \(nothing has changed yet\): the plan above/;

function hashTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (at: string): void => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else out[relative(dir, path)] = createHash("sha256").update(readFileSync(path)).digest("hex");
    }
  };
  walk(dir);
  return out;
}

/** `agent run --plan --agent code-editor` whose model reads greet.js, then plans. */
function startPlanRun(): TerminalRun {
  server.enqueue(
    { toolCalls: [{ name: "read_file", args: { path: "greet.js" } }] },
    { text: JSON.stringify(PLAN) },
  );
  return startTerminal(["run", "--plan", "--agent", "code-editor", "Say hello in a file"], {
    server,
    prepare: (sandbox) => writeFileSync(join(sandbox.workspace, "greet.js"), "export const greet = 1;\n"),
  });
}

function bodyOf(index: number): string {
  return JSON.stringify(server.requests[index]?.body ?? null);
}

test(
  "the plan is shown and changes nothing; y carries it out in the same session under the normal rules",
  async () => {
    const run = startPlanRun();
    try {
      const before = hashTree(run.sandbox.workspace);
      const screen = await run.waitForScreen(REVIEW, "the plan review");
      expect(screen).toContain("Plan: Create hello.txt with a greeting.");
      expect(screen).toContain("1. Write hello.txt");
      expect(hashTree(run.sandbox.workspace)).toEqual(before);
      expect(server.requests).toHaveLength(2);
      server.enqueue(
        { toolCalls: [{ name: "write_file", args: { path: "hello.txt", content: "Hello\n" } }] },
        { text: "Wrote hello.txt." },
      );
      run.press("y");
      // The write asks, as it would without plan mode.
      await run.waitForScreen(/wants to run write_file/, "the write's approval prompt");
      expect(await run.exitAfter("y")).toBe(0);
      expect(readFileSync(join(run.sandbox.workspace, "hello.txt"), "utf8")).toBe("Hello\n");
      // The executing request has the plan, the plan-mode conversation (greet.js read) and write tools.
      const executing = bodyOf(2);
      expect(executing).toContain("The user approved your plan. Carry it out now.");
      expect(executing).toContain("export const greet = 1;");
      expect(executing).toContain('"write_file"');
      expect(bodyOf(0)).not.toContain('"write_file"');
      expect(run.screen()).toContain("Wrote hello.txt.");
    } finally {
      run.close();
    }
  },
  TEST_TIMEOUT_MS,
);

test(
  "f takes the user's changes to the plan into the run that carries it out",
  async () => {
    const run = startPlanRun();
    try {
      await run.waitForScreen(REVIEW, "the plan review");
      server.enqueue({ text: "Nothing to write after all." });
      run.press("f");
      await run.waitForScreen(/your changes to the plan/, "the changes line");
      run.send("write Hi instead of Hello");
      expect(await run.exitStatus()).toBe(0);
      expect(bodyOf(2)).toContain(
        "The user changed the plan before approving it:\\nwrite Hi instead of Hello",
      );
    } finally {
      run.close();
    }
  },
  TEST_TIMEOUT_MS,
);

test(
  "n rejects the plan: nothing changes, no further request, exit 0",
  async () => {
    const run = startPlanRun();
    try {
      const before = hashTree(run.sandbox.workspace);
      await run.waitForScreen(REVIEW, "the plan review");
      expect(await run.exitAfter("n")).toBe(0);
      expect(hashTree(run.sandbox.workspace)).toEqual(before);
      expect(server.requests).toHaveLength(2);
      expect(existsSync(join(run.sandbox.workspace, "hello.txt"))).toBe(false);
    } finally {
      run.close();
    }
  },
  TEST_TIMEOUT_MS,
);
