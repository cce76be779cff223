/**
 * The span sink on a real session's events (the library session against the fake LLM server), with the
 * real SDK's tracer provider and its in-memory exporter: contents only with includeContent and then
 * redacted, and `end()` closing what an interrupted run left open.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT_CONTEXT } from "@opentelemetry/api";
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { createSession, defineSpec } from "agent";
import { createSpanSink } from "../../src/telemetry/span-sink.ts";
import { type FakeLlmServer, startFakeLlmServer } from "../support/fake-llm-server.ts";

const KEY = "sk-ant-test-sink-0000001";

let server: FakeLlmServer;
let dir: string;
let env: Record<string, string>;

beforeEach(async () => {
  server = await startFakeLlmServer();
  dir = mkdtempSync(join(tmpdir(), "agent-sink-"));
  for (const d of ["ws", "config", "state", "home"]) mkdirSync(join(dir, d));
  env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: join(dir, "home"),
    XDG_CONFIG_HOME: join(dir, "config"),
    XDG_STATE_HOME: join(dir, "state"),
    ANTHROPIC_API_KEY: KEY,
    ANTHROPIC_BASE_URL: server.anthropicBaseUrl,
  };
});
afterEach(async () => {
  server.clear();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const reader = defineSpec({
  name: "reader",
  description: "Reads files",
  system_prompt: "Read what you are asked to.",
  model: "fast",
  capabilities: ["read_file"],
});

function tracing(includeContent: boolean) {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  const sink = createSpanSink({
    tracer: provider.getTracer("test"),
    parent: ROOT_CONTEXT,
    includeContent,
    legacyAttributes: false,
    costOf: () => 0.5,
  });
  return { exporter, sink };
}

test("includeContent: goal, tool arguments and answer on the spans, keys redacted; off: none of them", async () => {
  for (const includeContent of [true, false]) {
    const { exporter, sink } = tracing(includeContent);
    const session = await createSession({
      cwd: join(dir, "ws"),
      env,
      specs: [reader],
      onEvent: sink.onEvent,
    });
    server.enqueue(
      { toolCalls: [{ name: "read_file", args: { path: "notes.txt" } }] },
      { text: `No such file; the key is ${KEY}.` },
    );
    const result = await session.run(`read notes.txt, key ${KEY}`, { agent: "reader" });
    await session.close();
    const spans = exporter.getFinishedSpans();
    const root = spans.find((s) => s.name === "invoke_agent reader");
    const tool = spans.find((s) => s.name === "execute_tool read_file");
    // Each model call at the given price; the run's span carries the run's own total (its result's).
    const chats = spans.filter((s) => s.name.startsWith("chat "));
    expect(chats.map((s) => s.attributes["agent.cost_usd"])).toEqual([0.5, 0.5]);
    expect(root?.attributes["agent.cost_usd"]).toBeCloseTo(result.usage[0]?.subtree.costUsd ?? -1, 6);
    expect(root?.attributes["gen_ai.system"]).toBeUndefined(); // legacyAttributes: false
    const text = JSON.stringify(spans.map((s) => s.attributes));
    expect(text).not.toContain(KEY);
    if (includeContent) {
      expect(String(root?.attributes["gen_ai.input.messages"])).toContain("read notes.txt, key [REDACTED]");
      expect(String(root?.attributes["gen_ai.output.messages"])).toContain("the key is [REDACTED]");
      expect(tool?.attributes["gen_ai.tool.call.arguments"]).toBe('{"path":"notes.txt"}');
    } else {
      expect(text).not.toContain("notes.txt");
      expect(text).not.toContain("No such file");
    }
  }
});

test("end() closes the spans of a run that never reached session_end, children before parents", async () => {
  const { exporter, sink } = tracing(false);
  const session = await createSession({ cwd: join(dir, "ws"), env, specs: [reader] });
  const held = Promise.withResolvers<void>();
  const collecting = session.events();
  server.enqueue(
    { toolCalls: [{ name: "read_file", args: { path: "a.txt" } }] },
    { holdUntil: held.promise },
  );
  const running = session.run("read a.txt", { agent: "reader" });
  // Feed the sink until the second model call starts: the run is then mid-flight (chat span open).
  for await (const event of collecting) {
    sink.onEvent(event);
    if (event.kind === "plan_start" && event.data.turn === 2) break;
  }
  sink.end();
  const names = exporter.getFinishedSpans().map((s) => s.name);
  expect(names).toContain("invoke_agent reader");
  expect(names.filter((n) => n.startsWith("chat "))).toHaveLength(2);
  expect(names.indexOf("invoke_agent reader")).toBe(names.length - 1);
  held.resolve();
  await running;
  await session.close();
});
