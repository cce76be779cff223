/**
 * With only OPENAI_API_KEY set (OPENAI_BASE_URL at the fake server, whose rules refuse what the real API
 * refuses): `agent run` (root delegating to a child that calls tools) and `agent helper --tools
 * read_file,exec` succeed on every tier, every request goes to /v1/responses with `store: false`, GPT
 * models are offered apply_patch (not edit_file), and reasoning items travel back with their encrypted
 * content. A `refusal` content part ends the run as a refusal (exit 1), never as an empty success.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_TIER_MODELS } from "../../../src/llm/resolve.ts";
import type { FakeLlmServer, FakeRequest } from "../../support/fake-llm-server.ts";
import { type E2eSandbox, freshServerAndSandbox, runAgentIn, writeProjectSpec } from "../support.ts";

let server: FakeLlmServer;
let sandbox: E2eSandbox;
freshServerAndSandbox((s, b) => {
  server = s;
  sandbox = b;
});

const openaiEnv = () =>
  sandbox.env({ OPENAI_API_KEY: "sk-test-responses-000000001", OPENAI_BASE_URL: server.openaiBaseUrl });

async function run(args: string[]) {
  const first = server.requests.length;
  const result = await runAgentIn(sandbox, args, openaiEnv());
  return { ...result, requests: server.requests.slice(first) };
}

const toolNames = (request: FakeRequest | undefined) =>
  ((request?.body as { tools?: { name: string }[] } | undefined)?.tools ?? []).map((t) => t.name);

function expectStatelessResponses(requests: FakeRequest[]): void {
  expect(requests.length).toBeGreaterThan(0);
  for (const request of requests) {
    expect(request.path).toBe("/v1/responses");
    expect(request.body).toMatchObject({ store: false, include: ["reasoning.encrypted_content"] });
  }
}

const PATCH = "*** Begin Patch\n*** Add File: hello.txt\n+Hello, world\n*** End Patch";
const R = "openai-responses" as const;

describe.each(["fast", "good", "best"] as const)("tier %s on OpenAI only", (tier) => {
  const tierModel = DEFAULT_TIER_MODELS[tier].openai[0];

  test("agent run: root delegates to code-editor, which patches a file and runs a command", async () => {
    server.enqueue(
      {
        protocol: R,
        reasoning: "delegate",
        toolCalls: [{ name: "code-editor", args: { goal: "create hello.txt" } }],
      },
      {
        protocol: R,
        reasoning: "patch it",
        text: "Adding the file.",
        toolCalls: [{ name: "apply_patch", args: { patch: PATCH } }],
      },
      { protocol: R, reasoning: "check", toolCalls: [{ name: "exec", args: { command: "cat hello.txt" } }] },
      { protocol: R, text: "Created hello.txt." },
      { protocol: R, text: "Done." },
    );
    const result = await run(["run", "Create hello.txt", "--model", tier, "--on-ask", "allow"]);
    expect(result.stderr).not.toContain("provider_error");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("Done.\n");
    expect(readFileSync(join(sandbox.workspace, "hello.txt"), "utf8")).toBe("Hello, world\n");
    expectStatelessResponses(result.requests);
    expect(result.requests[0]?.model).toBe(tierModel);
    expect(toolNames(result.requests[1])).toContain("apply_patch");
    expect(toolNames(result.requests[1])).not.toContain("edit_file");
    // The child's third request sends back its earlier reasoning item, message (with phase) and calls.
    const input =
      (result.requests[3]?.body as { input?: { type?: string; phase?: string }[] } | undefined)?.input ?? [];
    expect(input.filter((i) => i.type === "reasoning")).toHaveLength(2);
    expect(input.find((i) => i.type === "message")?.phase).toBe("commentary");
    expect(input.filter((i) => i.type === "function_call_output")).toHaveLength(2);
  });

  test("agent helper --tools read_file,exec", async () => {
    await Bun.write(join(sandbox.workspace, "notes.txt"), "the answer is 42\n");
    server.enqueue(
      { protocol: R, reasoning: "read", toolCalls: [{ name: "read_file", args: { path: "notes.txt" } }] },
      { protocol: R, toolCalls: [{ name: "exec", args: { command: "echo checked" } }] },
      { protocol: R, text: "42" },
    );
    const result = await run(["helper", "--tier", tier, "--tools", "read_file,exec", "What is the answer?"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("42\n");
    expectStatelessResponses(result.requests);
    expect(result.requests.every((r) => r.model === tierModel)).toBe(true);
    expect(toolNames(result.requests[0])).toEqual(["read_file", "exec"]);
  });
});

test("a refusal content part ends the run as a refusal: finish_reason refusal, exit 1", async () => {
  server.enqueue({ protocol: R, refusal: "I can't help with that." });
  const result = await run(["run", "do something bad", "--output", "json"]);
  expect(result.code).toBe(1);
  const out = JSON.parse(result.stdout) as {
    status: string;
    finish_reason: string;
    answer: string;
    exit_code: number;
  };
  expect(out).toMatchObject({ finish_reason: "refusal", exit_code: 1, answer: "I can't help with that." });
  expect(out.status).not.toBe("success");
});

test.each([
  ["a single call", [] as string[]],
  ["a --tools run", ["--tools", "read_file"]],
])(
  "agent helper, %s: a refusal part prints nothing on stdout, exits 1 and says why on stderr",
  async (_name, flags) => {
    server.enqueue({ protocol: R, refusal: "I can't help with that." });
    const result = await run(["helper", ...flags, "do something bad"]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("the model refused (refusal): I can't help with that.");
  },
);

test("a local model on an OpenAI-compatible server is called over Chat Completions, offered and allowed edit_file", async () => {
  mkdirSync(join(sandbox.configDir, "agent"), { recursive: true });
  writeFileSync(
    join(sandbox.configDir, "agent", "config.yaml"),
    `providers:\n  ollama:\n    kind: openai-compatible\n    base_url: ${server.openaiBaseUrl}\nmodels:\n  fast: ollama:llama3.2\n`,
  );
  writeFileSync(join(sandbox.workspace, "a.txt"), "helo\n");
  server.enqueue(
    {
      protocol: "openai",
      toolCalls: [{ name: "edit_file", args: { path: "a.txt", old_string: "helo", new_string: "hello" } }],
    },
    { protocol: "openai", text: "fixed" },
  );
  const first = server.requests.length;
  // Listing apply_patch allows the edit tool under the name this model is offered.
  const result = await runAgentIn(
    sandbox,
    ["helper", "--tools", "apply_patch,read_file", "fix the typo"],
    sandbox.env(),
  );
  expect(result.code).toBe(0);
  expect(result.stdout).toBe("fixed\n");
  expect(readFileSync(join(sandbox.workspace, "a.txt"), "utf8")).toBe("hello\n");
  const [request] = server.requests.slice(first);
  expect(request?.path).toBe("/v1/chat/completions");
  const names = (
    (request?.body as { tools?: { function: { name: string } }[] } | undefined)?.tools ?? []
  ).map((t) => t.function.name);
  expect(names).toEqual(["edit_file", "read_file"]);
});

test("reasoning_effort from config (per tier) and from a spec (which wins) reach the request, mapped per model", async () => {
  mkdirSync(join(sandbox.configDir, "agent"), { recursive: true });
  writeFileSync(
    join(sandbox.configDir, "agent", "config.yaml"),
    "reasoning_effort:\n  fast: none\n  best: none\n",
  );
  writeProjectSpec(
    sandbox,
    "thinker.yaml",
    "name: thinker\ndescription: thinks hard\nsystem_prompt: think\nmodel: fast\nreasoning_effort: xhigh\ncapabilities: [read_file]\n",
  );
  server.enqueue({ protocol: R, text: "a" }, { protocol: R, text: "b" }, { protocol: R, text: "c" });
  const fast = await run(["helper", "--tier", "fast", "hi"]);
  const best = await run(["helper", "--tier", "best", "hi"]);
  const spec = await run(["run", "--agent", "thinker", "hi"]);
  expect([fast.code, best.code, spec.code]).toEqual([0, 0, 0]);
  const effort = (r: { requests: FakeRequest[] }) =>
    (r.requests[0]?.body as { reasoning?: { effort?: string } } | undefined)?.reasoning?.effort;
  // gpt-6-luna takes none; gpt-6-astra has no none, so its floor (low) is sent.
  expect([effort(fast), effort(best), effort(spec)]).toEqual(["none", "low", "xhigh"]);
});
