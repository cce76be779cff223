import { afterEach, expect, test } from "bun:test";
import { STALL_NUDGE } from "../../../src/agents/loop/guards.ts";
import { type Harness, harness, spec } from "../harness.ts";

let h: Harness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

/** A model that never stops calling tools, each time with new arguments (so no stall fires). */
const endless = (_: unknown, i: number) => ({
  text: `working on step ${i}`,
  toolCalls: [{ name: "glob", arguments: { pattern: `step-${i}-*.txt` } }],
});

test("max_turns ends the run with its finish reason and the best partial answer", async () => {
  h = await harness({ specs: [spec("root", ["glob"])], script: { fallback: endless } });
  const result = await h.run("never ends", { limits: { maxTurns: 3 } });
  expect(result).toMatchObject({ status: "limit", finishReason: "max_turns", answer: "working on step 2" });
  expect(h.provider.requests).toHaveLength(3);
  expect(h.of("session_end")[0]?.data.finishReason).toBe("max_turns");
});

test("timeout ends a run stuck in a slow model call", async () => {
  h = await harness({
    specs: [spec("root", ["glob"])],
    script: {
      queue: [{ text: "first thought", toolCalls: [{ name: "glob", arguments: { pattern: "*" } }] }],
      // Never answers on its own: only the run's timeout can end this call.
      fallback: () => ({ text: "late", delayMs: 600_000 }),
    },
  });
  const result = await h.run("slow", { limits: { timeoutMs: 150 } });
  expect(result).toMatchObject({ status: "limit", finishReason: "timeout", answer: "first thought" });
});

test("the same call twice injects a nudge; still calling tools ends with stall and the best answer", async () => {
  const same = {
    text: "let me look again",
    toolCalls: [{ name: "glob", arguments: { pattern: "*.md", path: "." } }],
  };
  const reordered = { toolCalls: [{ name: "glob", arguments: { path: ".", pattern: "*.md" } }] };
  h = await harness({ specs: [spec("root", ["glob"])], script: { queue: [same, reordered, same] } });
  const result = await h.run("stall");
  expect(result).toMatchObject({ status: "success", finishReason: "stall", answer: "let me look again" });
  const third = h.provider.requests[2]?.request.messages.at(-1);
  expect(third).toEqual({ role: "user", content: STALL_NUDGE });
  // The calls of the last response were answered, so the history stays valid.
  expect(h.of("message").at(-1)?.data.message).toMatchObject({ role: "tool", isError: true });
});

test("three identical results in a row inject a nudge; a plain answer then finishes with reason stall", async () => {
  const echo = (command: string) => ({ toolCalls: [{ name: "exec", arguments: { command } }] });
  h = await harness({
    specs: [spec("root", ["exec"])],
    allow: ["exec"],
    script: {
      queue: [echo("echo same"), echo("echo 'same'"), echo('echo "same"'), { text: "it prints same" }],
    },
  });
  const result = await h.run("three identical results");
  expect(result).toMatchObject({ status: "success", finishReason: "stall", answer: "it prints same" });
  expect(h.provider.requests[2]?.request.messages.at(-1)?.role).toBe("tool");
  expect(h.provider.requests[3]?.request.messages.at(-1)).toEqual({ role: "user", content: STALL_NUDGE });
});

test("the token budget ends the run with reason budget", async () => {
  h = await harness({ specs: [spec("root", ["glob"])], script: { fallback: endless } });
  const result = await h.run("spend", { limits: { tokenBudget: 40 } });
  // 15 tokens a turn: over 40 after the third call.
  expect(result).toMatchObject({ status: "limit", finishReason: "budget", answer: "working on step 2" });
  expect(h.provider.requests).toHaveLength(3);
});

test("the cost budget of the root bounds its whole subtree", async () => {
  h = await harness({
    specs: [spec("root", ["worker"]), spec("worker", ["glob"])],
    price: 1_000_000, // $1 per token
    script: {
      agents: {
        "agent:root;": [{ toolCalls: [{ name: "worker", arguments: { goal: "spend" } }] }, { text: "x" }],
      },
      fallback: endless,
    },
  });
  const result = await h.run("spend", { limits: { costBudgetUsd: 50 } });
  expect(result.finishReason).toBe("budget");
  const worker = h.of("act_end")[0]?.data;
  expect(worker).toMatchObject({ status: "limit", finishReason: "budget" });
  expect(result.usage[0]?.subtree.costUsd).toBeGreaterThanOrEqual(50);
});

test("abort ends with interrupted; the open tool call gets an aborted result", async () => {
  const controller = new AbortController();
  h = await harness({
    specs: [spec("root", ["exec"])],
    allow: ["exec"],
    script: {
      // Only the abort can end this command within the test's own timeout.
      queue: [{ text: "sleeping", toolCalls: [{ name: "exec", arguments: { command: "sleep 600" } }] }],
    },
  });
  const running = h.run("sleep", { signal: controller.signal });
  // Abort once the command is running: wait for its event, not the clock.
  while (h.of("tool_start").length === 0) await Bun.sleep(10);
  controller.abort();
  const result = await running;
  expect(result).toMatchObject({ status: "interrupted", finishReason: "aborted", answer: "sleeping" });
  const last = h.of("message").at(-1)?.data.message;
  expect(last).toMatchObject({ role: "tool", toolName: "exec", isError: true });
  expect(last?.role === "tool" && last.content.toLowerCase()).toContain("abort");
});

test("a provider error ends with status error and the message; a refusal with reason refusal", async () => {
  h = await harness({
    specs: [spec("root", [])],
    script: {
      queue: [
        {
          text: "partial",
          error: { kind: "auth", message: "anthropic test-fast: 401 bad key", status: 401 },
        },
      ],
    },
  });
  const result = await h.run("x");
  expect(result).toMatchObject({ status: "error", finishReason: "provider_error", answer: "partial" });
  expect(result.error).toEqual({ kind: "auth", message: "anthropic test-fast: 401 bad key" });
  await h.cleanup();

  h = await harness({
    specs: [spec("root", [])],
    script: { queue: [{ text: "I can't help with that", stopReason: "refusal" }] },
  });
  expect(await h.run("x")).toMatchObject({
    status: "failure",
    finishReason: "refusal",
    answer: "I can't help with that",
  });
});

test("a model that cannot be resolved ends the run with a config error, never a throw", async () => {
  h = await harness({ specs: [spec("root", [])], script: { queue: [] } });
  const result = await h.run("x", {
    resolveModel: () => {
      throw new Error("no credentials for anthropic");
    },
  });
  expect(result).toMatchObject({ status: "error", finishReason: "error" });
  expect(result.error).toMatchObject({ kind: "config" });
  expect(result.error?.message).toContain("no credentials for anthropic");
  expect(h.events.map((e) => e.kind)).toEqual(["session_start", "error", "session_end"]);
});

test("a child's spec budget stops the child while the parent goes on and answers", async () => {
  h = await harness({
    specs: [
      spec("root", ["worker"]),
      spec("worker", ["glob"], {
        constraints: { ...spec("x", []).constraints, max_tokens: 40 },
      }),
    ],
    script: {
      agents: {
        "agent:root;": [
          { toolCalls: [{ name: "worker", arguments: { goal: "spend" } }] },
          { text: "the worker ran out of budget; here is what I know" },
        ],
      },
      fallback: endless,
    },
  });
  const result = await h.run("delegate");
  expect(result).toMatchObject({
    status: "success",
    finishReason: "stop",
    answer: "the worker ran out of budget; here is what I know",
  });
  expect(h.of("act_end")[0]?.data).toMatchObject({ status: "limit", finishReason: "budget" });
  const warning = h.of("warning").find((e) => e.data.code === "budget");
  expect(warning?.data.message).toContain("token budget of 40 spent");
  // The root's model saw the child's partial answer and why it stopped.
  const toolResult = h.provider.requests.at(-1)?.request.messages.at(-1);
  expect(toolResult?.role === "tool" && toolResult.content).toContain("finish reason budget");
});

test("the top agent's spec budget applies when no flag sets one; a flag's budget beats it", async () => {
  const capped = spec("root", ["glob"], { constraints: { ...spec("x", []).constraints, max_tokens: 20 } });
  h = await harness({ specs: [capped], script: { fallback: endless } });
  expect(await h.run("spend")).toMatchObject({ finishReason: "budget", answer: "working on step 1" });
  expect(h.provider.requests).toHaveLength(2);
  await h.cleanup();

  h = await harness({ specs: [capped], script: { fallback: endless } });
  expect(await h.run("spend", { limits: { tokenBudget: 40 } })).toMatchObject({ finishReason: "budget" });
  expect(h.provider.requests).toHaveLength(3);
});
