/**
 * History is a value (src/kernel/conversation/freeze.ts): every message a run sends is deep-frozen, those
 * it appends, those it starts from, and the copies compaction, eliding and escalation put in the list.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { applyCompaction, summaryMessage } from "../../../src/agents/loop/context/compaction.ts";
import { repairHistory } from "../../../src/agents/loop/context/history.ts";
import { withoutReasoning } from "../../../src/agents/loop/escalation.ts";
import { elideOldToolResults } from "../../../src/agents/loop/guards.ts";
import type { Message } from "../../../src/kernel/index.ts";
import { type Harness, harness, spec } from "../harness.ts";

/** True when `value` and everything it holds is frozen. */
function deeplyFrozen(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return true;
  return Object.isFrozen(value) && Object.values(value).every(deeplyFrozen);
}

const big = "x".repeat(4000);
const exchange = (n: number): Message[] => [
  {
    role: "assistant",
    parts: [
      { type: "reasoning", text: "think", signature: "sig", provider: "anthropic" },
      { type: "tool_call", id: `c${n}`, name: "read_file", arguments: { path: `${n}`, range: [1, 3] } },
    ],
  },
  { role: "tool", toolCallId: `c${n}`, toolName: "read_file", content: big, isError: false },
];
const fresh = (): Message[] => [{ role: "user", content: "goal" }, ...[1, 2, 3, 4, 5].flatMap(exchange)];

describe("the history's rewrites are frozen", () => {
  test("a repaired history, the aborted results it adds included", () => {
    const history = fresh();
    history.splice(2, 1); // the first call loses its result
    const repaired = repairHistory(history);
    expect(repaired.length).toBe(history.length + 1);
    expect(repaired.every(deeplyFrozen)).toBe(true);
    expect(Object.isFrozen(repaired)).toBe(false);
  });

  test("an elided history", () => {
    const { messages, elided } = elideOldToolResults(fresh(), { system: "s", tools: [], limitTokens: 3500 });
    expect(elided).toBeGreaterThan(0);
    expect(messages.every(deeplyFrozen)).toBe(true);
  });

  test("a compacted history", () => {
    const history = fresh();
    const compacted = applyCompaction(history, summaryMessage(history[0], "S"), 4);
    expect(compacted.every(deeplyFrozen)).toBe(true);
  });

  test("an escalated history without reasoning", () => {
    expect(withoutReasoning(fresh()).every(deeplyFrozen)).toBe(true);
  });
});

let h: Harness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

test("every message of every request of a run is deep-frozen, across a compaction", async () => {
  let n = 0;
  h = await harness({
    specs: [spec("root", ["read_file"], { model: "good" })],
    contextWindow: 10_000,
    script: {
      agents: { "You compact the earlier part": [{ text: "## Goal\nread\n## Decisions\nnone" }] },
      fallback: (request) => {
        n++;
        const usage = {
          inputTokens: request.messages.length * 250,
          cacheReadTokens: request.messages.length * 250,
        };
        if (n > 8) return { text: "done", usage };
        return { toolCalls: [{ name: "read_file", arguments: { path: `f${n}.txt` } }], usage };
      },
    },
  });
  for (let i = 1; i <= 8; i++) writeFileSync(path.join(h.dir, `f${i}.txt`), `file ${i}\n`);
  const history: Message[] = [
    { role: "user", content: "earlier" },
    { role: "assistant", parts: [{ type: "text", text: "earlier answer" }] },
  ];
  const result = await h.run("read the files", { history });
  expect(result.status).toBe("success");
  expect(h.of("compaction")).toHaveLength(1);
  // The root's requests (the summariser's one message is built for that request alone).
  const requests = h.provider.requests.map((r) => r.request).filter((r) => r.model.id === "test-good");
  expect(requests.length).toBeGreaterThan(8);
  for (const request of requests) expect(request.messages.every(deeplyFrozen)).toBe(true);
  expect(history.every(deeplyFrozen)).toBe(true);
  // Every message event carries the frozen message the run holds.
  expect(h.of("message").every((e) => deeplyFrozen(e.data.message))).toBe(true);
});
