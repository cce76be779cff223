/**
 * The library API, through the public entry only (`"agent"`, resolved by Bun through package.json
 * `exports`): a session with a spec, model resolution from the environment (the fake server as the
 * Anthropic endpoint), an approver callback, and the event stream collected two ways (callback and async
 * iterator) while a goal runs. MCP servers across a session's runs (a real server process):
 * test/e2e/sdk/library-mcp.test.ts.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  type AgentEvent,
  type ApprovalRequest,
  createSession,
  defineSpec,
  type HooksConfig,
  type RunResult,
} from "agent";
import type { FakeLlmServer } from "../support/fake-llm-server.ts";
import { closeLibraryFixture, openLibraryFixture } from "../support/library-dirs.ts";

let server: FakeLlmServer;
let dir: string;
let env: Record<string, string>;

beforeEach(async () => {
  ({ server, dir, env } = await openLibraryFixture("agent-sdk-", "sk-ant-test-sdk-000001"));
});
afterEach(() => closeLibraryFixture({ server, dir }));

const writer = defineSpec({
  name: "writer",
  description: "Writes files",
  system_prompt: "Write what you are asked to.",
  model: "fast",
  capabilities: ["write_file"],
});

test("a goal runs on a session: the approver callback decides, events arrive by callback and iterator", async () => {
  const asked: ApprovalRequest[] = [];
  const seen: AgentEvent[] = [];
  const session = await createSession({
    cwd: join(dir, "ws"),
    env,
    specs: [writer],
    approve: (request) => {
      asked.push(request);
      return { kind: "once" };
    },
    onEvent: (event) => seen.push(event),
  });
  server.enqueue(
    { toolCalls: [{ name: "write_file", args: { path: "hello.txt", content: "hi\n" } }] },
    { text: "Wrote hello.txt." },
  );
  const iterated: AgentEvent[] = [];
  const reading = (async () => {
    for await (const event of session.events()) iterated.push(event);
  })();
  const result = await session.run("Write hello.txt", { agent: "writer" });
  await reading;

  expect(result).toMatchObject({ status: "success", finishReason: "stop", answer: "Wrote hello.txt." });
  expect(readFileSync(join(dir, "ws", "hello.txt"), "utf8")).toBe("hi\n");
  expect(asked.map((r) => [r.tool, r.agentName])).toEqual([["write_file", "writer"]]);
  const kinds = seen.map((e) => e.kind);
  expect(kinds[0]).toBe("session_start");
  expect(kinds.at(-1)).toBe("session_end");
  expect(kinds).toContain("approval_request");
  expect(kinds).toContain("tool_end");
  expect(iterated.map((e) => e.kind)).toEqual(kinds);
  expect(seen.every((e) => e.data !== undefined && typeof e.agent === "string")).toBe(true);
});

test("a denial from the callback reaches the model and nothing is written", async () => {
  const session = await createSession({
    cwd: join(dir, "ws"),
    env,
    specs: [writer],
    approve: () => ({ kind: "deny_feedback", feedback: "not in this folder" }),
  });
  server.enqueue(
    { toolCalls: [{ name: "write_file", args: { path: "hello.txt", content: "hi\n" } }] },
    { text: "I was not allowed." },
  );
  const result = await session.run("Write hello.txt", { agent: "writer" });
  expect(result.status).toBe("success");
  expect(JSON.stringify(server.requests[1]?.body)).toContain("with feedback: not in this folder");
  expect(() => readFileSync(join(dir, "ws", "hello.txt"))).toThrow();
});

test("an unknown agent is a usage error naming the known ones", async () => {
  const session = await createSession({ cwd: join(dir, "ws"), env, specs: [writer] });
  expect(() => session.spec("nobody")).toThrow('unknown agent "nobody"; known agents: writer');
});

test("every run gets the project instructions and may replace the system prompt; instructions: false leaves them out", async () => {
  writeFileSync(join(dir, "ws", "AGENTS.md"), "Always answer in haiku.\n");
  const session = await createSession({ cwd: join(dir, "ws"), env, specs: [writer] });
  server.enqueue({ text: "Done." });
  const result = await session.run("Say hi", { agent: "writer", systemPrompt: "You are terse." });
  expect(result.status).toBe("success");
  const sent = JSON.stringify(server.requests[0]?.body);
  expect(sent).toContain("You are terse.");
  expect(sent).not.toContain("Write what you are asked to.");
  expect(sent).toContain("Always answer in haiku.");

  const plain = await createSession({ cwd: join(dir, "ws"), env, specs: [writer], instructions: false });
  server.enqueue({ text: "Done." });
  await plain.run("Say hi", { agent: "writer" });
  const second = JSON.stringify(server.requests[1]?.body);
  expect(second).toContain("Write what you are asked to.");
  expect(second).not.toContain("Always answer in haiku.");
});

test("a run that fails resolves to its result, never a throw: a provider error, a missing key", async () => {
  const session = await createSession({ cwd: join(dir, "ws"), env, specs: [writer] });
  server.enqueue({ status: 401, errorMessage: "invalid x-api-key" });
  const refused: RunResult = await session.run("Write hello.txt", { agent: "writer" });
  expect(refused.status).toBe("error");
  expect(refused.error?.message).toContain("401");

  const { ANTHROPIC_API_KEY: _key, ...keyless } = env;
  const noKey = await createSession({ cwd: join(dir, "ws"), env: keyless, specs: [writer] });
  const missing = await noKey.run("Write hello.txt", { agent: "writer" });
  expect(missing.status).toBe("error");
  expect(missing.error?.kind).toBe("config");
});

test("on_stop hooks run once per run, not per sub-agent; runs on one session each get theirs", async () => {
  const lead = defineSpec({
    ...writer,
    name: "lead",
    capabilities: ["writer"],
    constraints: { can_spawn: true },
  });
  const hooks: HooksConfig = {
    before_tool: [],
    after_tool: [],
    on_stop: [{ command: `cat >> ${JSON.stringify(join(dir, "stops.jsonl"))}` }],
  };
  const session = await createSession({ cwd: join(dir, "ws"), env, specs: [lead, writer], hooks });
  server.enqueue(
    { toolCalls: [{ name: "writer", args: { goal: "say hi" } }] },
    { text: "Hi from the writer." },
    { text: "First." },
  );
  expect((await session.run("go", { agent: "lead" })).answer).toBe("First.");
  server.enqueue({ text: "Second." });
  expect((await session.run("again", { agent: "lead" })).answer).toBe("Second.");
  const stops = readFileSync(join(dir, "stops.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  expect(stops.map((s) => s.answer)).toEqual(["First.", "Second."]);
});

test("outputSchema takes a plain JSON schema: the answer is checked against it and re-asked once", async () => {
  const session = await createSession({ cwd: join(dir, "ws"), env, specs: [writer], instructions: false });
  server.enqueue({ text: "about three" }, { text: '{"count": 3}' });
  const schema = { type: "object", properties: { count: { type: "integer" } }, required: ["count"] };
  const result = await session.run("How many?", { agent: "writer", outputSchema: { name: "count", schema } });
  expect(result).toMatchObject({ status: "success", answer: '{"count":3}' });
  expect(JSON.stringify(server.requests[1]?.body)).toContain("does not match the required JSON schema");
});
