/**
 * Nothing the user should know happens silently (issue 21 items 3 and 7), on stderr of a run without a
 * terminal: a delegation with bad arguments is a failed line with its reason while the run goes on, and a
 * denied call is one line (the call's own error result adds none). `agent run` in the test process
 * (in-process.ts) against the fake server.
 */
import { describe, expect, test } from "bun:test";
import { anthropicEnv, type E2eSandbox, freshServerAndSandbox } from "../../e2e/support.ts";
import type { FakeLlmServer } from "../../support/fake-llm-server.ts";
import { runInSandbox } from "./in-process.ts";

let server: FakeLlmServer;
let sandbox: E2eSandbox;

freshServerAndSandbox((s, b) => {
  server = s;
  sandbox = b;
});

describe("failed and refused calls on stderr", () => {
  test("a sub-agent call with bad arguments shows as a failed line with the reason, under root", async () => {
    server.enqueue(
      { toolCalls: [{ name: "code-reader", args: { goal: "find the config", hints: "src" } }] },
      { text: "I could not delegate." },
    );
    const result = await runInSandbox(sandbox, ["run", "find the config"], anthropicEnv(sandbox, server));
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("I could not delegate.\n");
    expect(result.stderr).toMatch(
      /^ {2}✗ code-reader find the config — invalid arguments for code-reader: `hints` must be a list of strings when given \(\d+ms\)$/m,
    );
  });

  test("a denied write is one line on stderr, with who refused it", async () => {
    server.enqueue(
      { toolCalls: [{ name: "write_file", args: { path: "a.txt", content: "x\n" } }] },
      { text: "Not written." },
    );
    const result = await runInSandbox(
      sandbox,
      ["run", "write a.txt", "--agent", "code-editor"],
      anthropicEnv(sandbox, server),
    );
    expect(result.code).toBe(0);
    const lines = result.stderr
      .split("\n")
      .filter((l) => l.includes("a.txt") && !l.includes("to allow") && !l.startsWith("▸"));
    expect(lines).toEqual(["  ✗ denied write_file a.txt (by default: no terminal to ask)"]);
    expect(result.stderr).not.toContain("DENIED:");
  });
});
