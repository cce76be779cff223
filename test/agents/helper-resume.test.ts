import { afterEach, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { type HelperOptions, type HelperResult, runHelper } from "../../src/agents/helper-loop.ts";
import { resumeFrom } from "../../src/agents/loop/context/resume.ts";
import type { AgentEvent, ModelInfo, ModelRef } from "../../src/kernel/index.ts";
import { Workspace } from "../../src/tools/workspace.ts";
import { scriptedProvider } from "../support/scripted-provider.ts";
import { type Harness, harness, modelRef, spec } from "./harness.ts";

let dir: string | undefined;
let h: Harness | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  await h?.cleanup();
  dir = undefined;
  h = undefined;
});

const info = (ref: ModelRef): ModelInfo => ({
  id: ref.id,
  provider: ref.provider,
  contextWindow: 100_000,
  maxOutputTokens: 4096,
  price: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  known: false,
});

async function helperWorkspace(): Promise<Workspace> {
  dir = await mkdtemp(path.join(tmpdir(), "agent-helper-"));
  writeFileSync(path.join(dir, "notes.txt"), "the answer is 42\n");
  return Workspace.open(dir);
}

/** runHelper on the test models' fast tier, in `workspace`; the rest of its options as given. */
function runTestHelper(
  workspace: Workspace,
  options: Omit<HelperOptions, "model" | "resolveModel" | "modelInfo" | "workspace">,
): Promise<HelperResult> {
  return runHelper({ model: "fast", resolveModel: modelRef, modelInfo: info, workspace, ...options });
}

test("a helper runs its whitelisted tools without asking and refuses every other tool", async () => {
  const workspace = await helperWorkspace();
  const provider = scriptedProvider({
    queue: [
      {
        toolCalls: [
          { name: "read_file", arguments: { path: "notes.txt" } },
          { name: "write_file", arguments: { path: "evil.txt", content: "x" } },
        ],
      },
      { text: "42" },
    ],
  });
  const result = await runTestHelper(workspace, {
    prompt: "what is the answer?",
    tools: ["read_file"],
    stream: provider.stream,
  });
  expect(result).toMatchObject({
    status: "success",
    answer: "42",
    model: "test-fast",
    provider: "anthropic",
  });
  expect(provider.requests[0]?.request.tools.map((t) => t.name)).toEqual(["read_file"]);
  const results = provider.requests[1]?.request.messages.filter((m) => m.role === "tool") ?? [];
  expect(results[0]).toMatchObject({ toolName: "read_file", isError: false });
  expect(results[0]?.role === "tool" && results[0].content).toContain("the answer is 42");
  expect(results[1]).toMatchObject({ toolName: "write_file", isError: true });
  expect(results[1]?.role === "tool" && results[1].content).toContain("available tools: read_file");
  expect(existsSync(path.join(workspace.root, "evil.txt"))).toBe(false);
  // An unlisted primitive is a refusal the run reports, not the model's stumble.
  expect(result.activity?.stumbles).toBe(0);
  expect(result.activity?.denials).toMatchObject([
    { tool: "write_file", target: "evil.txt", decidedBy: "whitelist" },
  ]);
});

test("a helper whose whitelisted tool needs approval runs it: the whitelist is the approval", async () => {
  const workspace = await helperWorkspace();
  const provider = scriptedProvider({
    queue: [
      { toolCalls: [{ name: "write_file", arguments: { path: "out.txt", content: "hi" } }] },
      { text: "wrote" },
    ],
  });
  const events: AgentEvent[] = [];
  const result = await runTestHelper(workspace, {
    prompt: "write",
    tools: ["write_file"],
    stream: provider.stream,
    emit: (e) => events.push(e),
  });
  expect(result.answer).toBe("wrote");
  expect(readFileSync(path.join(workspace.root, "out.txt"), "utf8")).toBe("hi");
  expect(events.some((e) => e.kind === "approval_request")).toBe(false);
});

test("a stalled helper escalates once to the next tier", async () => {
  const workspace = await helperWorkspace();
  const same = { toolCalls: [{ name: "read_file", arguments: { path: "notes.txt" } }] };
  const provider = scriptedProvider({
    queue: [same, same, same],
    fallback: (request) => ({ text: `answer from ${request.model.id}` }),
  });
  const events: AgentEvent[] = [];
  const result = await runTestHelper(workspace, {
    prompt: "q",
    tools: ["read_file"],
    stream: provider.stream,
    emit: (e) => events.push(e),
  });
  expect(result).toMatchObject({ finishReason: "stop", model: "test-good", answer: "answer from test-good" });
  // Both attempts' model calls are counted: 3 stalled + 1 escalated, 10 input tokens each.
  expect(result.usage[0]?.usage.inputTokens).toBe(40);
  expect(events.find((e) => e.kind === "model_switch")?.data).toMatchObject({
    from: "test-fast",
    to: "test-good",
  });
});

test("the budget of an escalated helper counts what the stalled attempt spent", async () => {
  const workspace = await helperWorkspace();
  const same = { toolCalls: [{ name: "read_file", arguments: { path: "notes.txt" } }] };
  const another = {
    text: "checking once more",
    toolCalls: [{ name: "read_file", arguments: { path: "notes.txt", offset: 1 } }],
  };
  const run = (tokenBudget: number) =>
    runTestHelper(workspace, {
      prompt: "q",
      tools: ["read_file"],
      stream: scriptedProvider({ queue: [same, same, same, another, { text: "42" }] }).stream,
      tokenBudget,
    });
  // 15 tokens a call: the stalled attempt spends 45 of 50, so the escalated one stops after one call.
  expect(await run(50)).toMatchObject({
    finishReason: "budget",
    model: "test-good",
    answer: "checking once more",
  });
  expect(await run(1000)).toMatchObject({ finishReason: "stop", model: "test-good", answer: "42" });
});

test("resumeFrom rebuilds the root history from message events and a run continues it", async () => {
  h = await harness({
    specs: [spec("root", ["worker", "read_file"]), spec("worker", [])],
    script: {
      agents: {
        "agent:root;": [
          { toolCalls: [{ name: "worker", arguments: { goal: "w" } }] },
          { text: "first answer" },
          { text: "second answer" },
        ],
        "agent:worker;": [{ text: "worker says hi" }],
      },
    },
  });
  await h.run("first goal");
  const point = resumeFrom(h.events);
  expect(point).toMatchObject({ sessionId: "test-session", agentName: "root", goal: "first goal" });
  expect(point.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
  const result = await h.run("second goal", { history: point.messages, resumed: true });
  expect(result.answer).toBe("second answer");
  const sent = h.provider.requests.at(-1)?.request.messages ?? [];
  expect(sent).toHaveLength(5);
  expect(sent[4]).toEqual({ role: "user", content: "New goal: second goal" });
  expect(h.of("session_start").at(-1)?.data.resumed).toBe(true);
});

test("resumeFrom closes tool calls a crash left without results", () => {
  const who = { agent: "root", name: "root", depth: 0, time: 0 };
  const events: AgentEvent[] = [
    { ...who, kind: "message", data: { message: { role: "user", content: "goal" } } },
    {
      ...who,
      kind: "message",
      data: {
        message: {
          role: "assistant",
          parts: [
            { type: "tool_call", id: "a", name: "read_file", arguments: {} },
            { type: "tool_call", id: "b", name: "read_file", arguments: {} },
          ],
        },
      },
    },
    {
      ...who,
      kind: "message",
      data: {
        message: { role: "tool", toolCallId: "a", toolName: "read_file", content: "ok", isError: false },
      },
    },
    { ...who, kind: "message", data: { message: { role: "user", content: "more" } } },
  ];
  const { messages } = resumeFrom(events);
  expect(messages.map((m) => (m.role === "tool" ? `tool:${m.toolCallId}:${m.isError}` : m.role))).toEqual([
    "user",
    "assistant",
    "tool:a:false",
    "tool:b:true",
    "user",
  ]);
});
