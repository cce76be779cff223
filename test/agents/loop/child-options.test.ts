/** What a sub-agent inherits from its parent's run options (childRunOptions, src/agents/loop/setup.ts). */
import { expect, test } from "bun:test";
import { childRunOptions } from "../../../src/agents/loop/setup.ts";
import type { RunAgentOptions } from "../../../src/agents/types.ts";
import { spec } from "../harness.ts";

test("a child inherits instructions and the compaction threshold, never the parent's history, model, schema or compactFirst", () => {
  const instructions = {
    files: [{ path: "/ws/AGENTS.md", text: "Be brief." }],
    block: "Be brief.",
    warnings: [],
  };
  const parent = {
    spec: spec("root", ["agents:*"]),
    goal: "parent goal",
    instructions,
    history: [{ role: "user", content: "earlier" }],
    model: "best",
    resumed: true,
    escalate: true,
    compactFirst: true,
    gate: { check: async () => ({ allowed: true, verdict: { effect: "allow", reason: "test" } }) },
    limits: { concurrency: 2, verifyTimeoutMs: 5, toolOutputChars: 100, compactThreshold: 0.5, maxTurns: 3 },
  } as unknown as RunAgentOptions;
  const child = childRunOptions(parent, {
    spec: spec("worker", []),
    goal: "child goal",
    hints: [],
    signal: new AbortController().signal,
  });
  expect(child.instructions).toBe(instructions);
  expect(child.limits).toEqual({
    concurrency: 2,
    verifyTimeoutMs: 5,
    toolOutputChars: 100,
    compactThreshold: 0.5,
  });
  expect(child.goal).toBe("child goal");
  for (const key of ["history", "model", "resumed", "escalate", "compactFirst", "outputSchema"])
    expect(key in child).toBe(false);
});
