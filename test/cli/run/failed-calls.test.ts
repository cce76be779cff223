/**
 * A failed tool call never passes silently (issue 21, item 3): a delegation with bad arguments, a call to
 * an unknown tool and a tool that fails each show as a failed line with the reason in the plain progress
 * on stderr, and the result's tool calls name what each stumble was after (`target`). `agent run` in the
 * test process (in-process.ts), without a terminal, against the fake server.
 */
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseJsonLines } from "../../e2e/support.ts";
import type { FakeTurn } from "../../support/fake-llm-server.ts";
import { inProcessFixture } from "./in-process.ts";

const e2e = inProcessFixture();

/** root calls a sub-agent with bad arguments, an unknown tool and read_file on a missing file, then answers. */
function failingTurns(): FakeTurn[] {
  return [
    {
      toolCalls: [
        { name: "code-reader", args: { goal: "Find the greeting", hints: 42 } },
        { name: "teleport", args: { path: "notes.txt" } },
      ],
    },
    { toolCalls: [{ name: "code-reader", args: { goal: "Read missing.txt" } }] },
    { toolCalls: [{ name: "read_file", args: { path: "missing.txt" } }] },
    { text: "missing.txt does not exist." },
    { text: "Three calls failed." },
  ];
}

describe("failed tool calls", () => {
  test("text mode: each failed call is a ✗ line on stderr with its reason", async () => {
    writeFileSync(join(e2e.sandbox.workspace, "notes.txt"), "hello\n");
    e2e.server.enqueue(...failingTurns());
    const result = await e2e.runAgent(["run", "Greet"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("Three calls failed.\n");
    const lines = result.stderr.split("\n");
    const line = (needle: string): string => lines.find((l) => l.includes(needle)) ?? "";
    // The delegation never started a sub-agent (no act line): its failure is a line of its own.
    expect(line("✗ code-reader Find the greeting")).toContain("hints");
    expect(line("✗ teleport notes.txt")).toContain('unknown tool "teleport"');
    expect(line("✗ read_file missing.txt")).not.toBe("");
  });

  test("--output json: stumbles name their target", async () => {
    writeFileSync(join(e2e.sandbox.workspace, "notes.txt"), "hello\n");
    e2e.server.enqueue(...failingTurns());
    const result = await e2e.runAgent(["run", "Greet", "--output", "json"]);
    expect(result.code).toBe(0);
    const [record] = parseJsonLines(result.stdout);
    expect(record?.stumbles).toBe(2);
    const calls = record?.tool_calls as { agent: string; tool: string; target: string; outcome: string }[];
    expect(calls).toContainEqual({
      agent: "root",
      tool: "code-reader",
      target: "Find the greeting",
      outcome: "stumble",
    });
    expect(calls).toContainEqual({
      agent: "root",
      tool: "teleport",
      target: "notes.txt",
      outcome: "stumble",
    });
    expect(calls).toContainEqual({
      agent: "root/code-reader#1",
      tool: "read_file",
      target: "missing.txt",
      outcome: "error",
    });
    for (const call of calls) expect(call.target).not.toBe("");
  });
});
