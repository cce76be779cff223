import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { runAgent } from "../../../src/agents/loop/run-loop.ts";
import { BOOTSTRAP_DIR, loadSpecs } from "../../../src/agents/spec/spec-loader.ts";
import type { AgentEvent } from "../../../src/kernel/index.ts";
import { createModelClient } from "../../../src/llm/client.ts";
import { flagApprover } from "../../../src/policy/approvers.ts";
import { ApprovalGate } from "../../../src/policy/gate.ts";
import { buildRuleSet } from "../../../src/policy/rules.ts";
import { Workspace } from "../../../src/tools/workspace.ts";
import { type FakeLlmServer, startFakeLlmServer } from "../../support/fake-llm-server.ts";

/** The loop over the real provider stack (SDKs, adapters, retries) against the fake LLM server. */

let server: FakeLlmServer;
let dir: string;
beforeAll(async () => {
  server = await startFakeLlmServer();
});
afterAll(async () => {
  await server.close();
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

// Official OpenAI models are called over Responses (POST /v1/responses).
for (const protocol of ["anthropic", "openai-responses"] as const) {
  test(`${protocol}: bootstrap root delegates to code-editor, which writes a file; a stall nudge follows tool results`, async () => {
    dir = await mkdtemp(path.join(tmpdir(), "agent-e2e-"));
    const workspace = await Workspace.open(dir);
    const env =
      protocol === "anthropic"
        ? { ANTHROPIC_API_KEY: "sk-ant-test-key-123456", ANTHROPIC_BASE_URL: server.anthropicBaseUrl }
        : { OPENAI_API_KEY: "sk-test-key-1234567890abcdef", OPENAI_BASE_URL: server.openaiBaseUrl };
    const client = await createModelClient({ env, workspaceRoot: dir, retry: { maxRetries: 0 } });
    const { specs, errors } = await loadSpecs({
      workspaceRoot: dir,
      sources: [{ dir: BOOTSTRAP_DIR, scope: "bootstrap" }],
    });
    expect(errors).toEqual([]);
    const events: AgentEvent[] = [];
    const emit = (e: AgentEvent) => events.push(e);
    const gate = new ApprovalGate({ rules: buildRuleSet({}), approver: flagApprover("allow"), emit });
    const before = server.requests.length;
    const glob = { name: "glob", args: { pattern: "*.md" } };
    server.enqueue(
      { protocol, toolCalls: [{ name: "code-editor", args: { goal: "write hello.txt containing hi" } }] },
      {
        protocol,
        toolCalls: [{ name: "write_file", args: { path: "hello.txt", content: "hi\n" }, fragments: 3 }],
      },
      { protocol, toolCalls: [glob] },
      { protocol, toolCalls: [glob] },
      { protocol, text: ["Wrote ", "hello.txt."] },
      { protocol, text: "Done: hello.txt created." },
    );
    const root = specs.get("root");
    if (!root) throw new Error("no root spec");
    const result = await runAgent({
      spec: root,
      goal: "create hello.txt",
      specs,
      emit,
      stream: client.stream,
      resolveModel: (name) => client.resolve(name).ref,
      modelInfo: (ref) => client.info(ref),
      workspace,
      gate,
      learnFile: path.join(dir, "learn.jsonl"),
    });
    expect(result).toMatchObject({
      status: "success",
      finishReason: "stop",
      answer: "Done: hello.txt created.",
    });
    expect(await readFile(path.join(dir, "hello.txt"), "utf8")).toBe("hi\n");
    const editor = events.find((e) => e.kind === "act_end");
    expect(editor?.kind === "act_end" && editor.data).toMatchObject({
      status: "success",
      finishReason: "stall",
    });
    const mine = server.requests.slice(before);
    expect(mine).toHaveLength(6);
    if (protocol === "anthropic") {
      // The nudge after tool results must not break user/assistant alternation.
      const body = mine[4]?.body as { messages: { role: string }[] } | undefined;
      const roles = (body?.messages ?? []).map((m) => m.role);
      expect(roles.length).toBeGreaterThan(4);
      expect(roles.every((r, i) => r === (i % 2 === 0 ? "user" : "assistant"))).toBe(true);
    }
    if (protocol === "openai-responses") {
      // Stateless Responses requests; the fake's rules refuse a reasoning item replayed without content.
      for (const request of mine) expect(request.body).toMatchObject({ store: false });
    }
    expect(result.usage.map((u) => u.agent)).toEqual(["root", "root/code-editor#1"]);
  });
}
