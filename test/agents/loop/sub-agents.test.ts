import { afterEach, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import path from "node:path";
import { type Harness, harness, spec, toolResultsIn } from "../harness.ts";

let h: Harness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

test("root delegates to code-editor, which writes a file that exists afterwards", async () => {
  h = await harness({
    specs: [spec("root", ["code-editor"]), spec("code-editor", ["read_file", "write_file"])],
    allow: ["write_file"],
    script: {
      agents: {
        "agent:root;": [
          {
            toolCalls: [{ name: "code-editor", arguments: { goal: "create hello.txt", hints: ["say hi"] } }],
          },
          { text: "Created hello.txt." },
        ],
        "agent:code-editor;": [
          { toolCalls: [{ name: "write_file", arguments: { path: "hello.txt", content: "hi\n" } }] },
          { text: "Wrote hello.txt (1 line)." },
        ],
      },
    },
  });
  const result = await h.run("create hello.txt");
  expect(result).toMatchObject({ status: "success", finishReason: "stop", answer: "Created hello.txt." });
  expect(readFileSync(path.join(h.dir, "hello.txt"), "utf8")).toBe("hi\n");

  // The child's goal and hints reached it; its answer reached the parent.
  const childRequest = h.provider.requests.find((r) => r.key === "agent:code-editor;")?.request;
  const firstUser = childRequest?.messages[0];
  expect(firstUser?.role === "user" && firstUser.content).toContain("create hello.txt");
  expect(firstUser?.role === "user" && firstUser.content).toContain("- say hi");
  expect(toolResultsIn(h, 3)).toEqual([
    expect.objectContaining({
      toolName: "code-editor",
      content: "Wrote hello.txt (1 line).",
      isError: false,
    }),
  ]);

  // Identity on every event; session_start/end only for the root.
  const child = "root/code-editor#1";
  expect(h.of("act_start")[0]?.data).toMatchObject({ child, childName: "code-editor" });
  expect(h.of("act_end")[0]?.data).toMatchObject({ child, status: "success" });
  const childEvents = h.events.filter((e) => e.agent === child);
  expect(childEvents.length).toBeGreaterThan(0);
  for (const e of childEvents) expect(e).toMatchObject({ name: "code-editor", parent: "root", depth: 1 });
  expect(h.of("session_start").map((e) => e.agent)).toEqual(["root"]);
  expect(h.of("session_end").map((e) => e.agent)).toEqual(["root"]);
  expect(h.of("tool_end").find((e) => e.agent === child)?.data.tool).toBe("write_file");

  // Usage per agent, root first, rolled up per subtree (each turn: 10 in + 5 out at $1/M).
  expect(result.usage.map((u) => u.agent)).toEqual(["root", child]);
  expect(result.usage[0]?.usage.inputTokens).toBe(20);
  expect(result.usage[0]?.subtree.usage.inputTokens).toBe(40);
  expect(result.usage[0]?.subtree.costUsd).toBeCloseTo(60 / 1_000_000, 12);
  expect(result.usage[1]).toMatchObject({ parent: "root", depth: 1 });
});

test("two delegations in one response run concurrently and results keep the model's order", async () => {
  h = await harness({
    specs: [spec("root", ["worker"]), spec("worker", ["read_file"])],
    script: {
      agents: {
        "agent:root;": [
          {
            toolCalls: [
              { name: "worker", arguments: { goal: "slow job A" } },
              { name: "worker", arguments: { goal: "fast job B" } },
            ],
          },
          { text: "both done" },
        ],
      },
      fallback: (request) => {
        const goal = request.messages[0]?.role === "user" ? request.messages[0].content : "";
        return goal.includes("slow") ? { text: "A done", delayMs: 300 } : { text: "B done", delayMs: 100 };
      },
    },
  });
  const result = await h.run("do A and B");
  expect(result.finishReason).toBe("stop");
  // Both children started before either ended: they ran at the same time (no clock needed).
  const acts = h.events.filter((e) => e.kind === "act_start" || e.kind === "act_end").map((e) => e.kind);
  expect(acts).toEqual(["act_start", "act_start", "act_end", "act_end"]);
  expect(toolResultsIn(h, 3).map((r) => r.content)).toEqual(["A done", "B done"]);
  expect(h.of("act_start").map((e) => e.data.child)).toEqual(["root/worker#1", "root/worker#2"]);
});

test("a failed child returns its status to the parent as an error result", async () => {
  h = await harness({
    specs: [
      spec("root", ["worker"]),
      spec("worker", ["read_file"], {
        constraints: { max_turns: 1, max_depth: 0, timeout_ms: 60_000, can_spawn: false, can_learn: false },
      }),
    ],
    script: {
      agents: {
        "agent:root;": [
          { toolCalls: [{ name: "worker", arguments: { goal: "loop" } }] },
          { text: "worker hit its limit" },
        ],
        "agent:worker;": [
          { text: "partial progress", toolCalls: [{ name: "read_file", arguments: { path: "x" } }] },
        ],
      },
    },
  });
  const result = await h.run("go");
  expect(result.finishReason).toBe("stop");
  const [child] = toolResultsIn(h, 2);
  expect(child?.isError).toBe(true);
  expect(child?.content).toContain("status limit, finish reason max_turns");
  expect(child?.content).toContain("partial progress");
  // The child's early end is announced by a warning from the child; the root's own end is session_end.
  const warnings = h.of("warning").map((e) => [e.agent, e.data.code]);
  expect(warnings).toEqual([["root/worker#1", "max_turns"]]);
});

test("max_depth bounds recursion: an agent at the bound is offered no sub-agents", async () => {
  h = await harness({
    specs: [spec("root", ["mid"]), spec("mid", ["leaf"]), spec("leaf", ["read_file"])],
    script: {
      agents: {
        "agent:root;": [{ toolCalls: [{ name: "mid", arguments: { goal: "go deeper" } }] }, { text: "done" }],
        "agent:mid;": [{ text: "no deeper" }],
      },
    },
  });
  await h.run("go", { limits: { maxDepth: 1 } });
  const midTools = h.provider.requests.find((r) => r.key === "agent:mid;")?.request.tools.map((t) => t.name);
  expect(midTools).toEqual([]);
  expect(h.provider.requests[0]?.request.tools.map((t) => t.name)).toEqual(["mid"]);
});

test("concurrent delegations are bounded by the concurrency limit", async () => {
  h = await harness({
    specs: [spec("root", ["worker"]), spec("worker", [])],
    script: {
      agents: {
        "agent:root;": [
          { toolCalls: [1, 2, 3, 4, 5].map((i) => ({ name: "worker", arguments: { goal: `job ${i}` } })) },
          { text: "done" },
        ],
      },
      fallback: () => ({ text: "ok", delayMs: 50 }),
    },
  });
  await h.run("five jobs", { limits: { concurrency: 2 } });
  let running = 0;
  let peak = 0;
  for (const e of h.events) {
    if (e.kind === "act_start") peak = Math.max(peak, ++running);
    if (e.kind === "act_end") running--;
  }
  expect(h.of("act_end")).toHaveLength(5);
  expect(peak).toBe(2);
});

test("a child whose spec says model: auto gets the tier its own goal calls for", async () => {
  h = await harness({
    specs: [spec("root", ["thinker"]), spec("thinker", ["read_file"], { model: "auto" })],
    script: {
      agents: {
        "agent:root;": [
          {
            toolCalls: [
              { name: "thinker", arguments: { goal: "Design the architecture of a plugin system" } },
            ],
          },
          { text: "Done." },
        ],
        "agent:thinker;": [{ text: "A design." }],
      },
    },
  });
  await h.run("plan plugins");
  // The harness resolves a name N to the model id test-N: auto became best, not fast.
  const child = h.provider.requests.find((r) => r.key === "agent:thinker;")?.request;
  expect(child?.model.id).toBe("test-best");
});
