/**
 * OpenTelemetry traces of real `bin/agent` runs against the fake LLM server, received by a local
 * OTLP/HTTP receiver on 127.0.0.1 (test/support/otlp-receiver.ts): the GenAI span names, attributes and
 * nesting of a root → sub-agent → tool run, no prompt text by default, no key anywhere, a TRACEPARENT
 * joined, and an exit that a closed collector port does not hold back.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { closedPort } from "../../support/closed-port.ts";
import type { FakeLlmServer, FakeTurn } from "../../support/fake-llm-server.ts";
import {
  decodeTraces,
  type OtlpReceiver,
  type ReceivedSpan,
  startOtlpReceiver,
} from "../../support/otlp-receiver.ts";
import { anthropicEnv, type E2eSandbox, freshServerAndSandbox, runAgentIn, TEST_KEY } from "../support.ts";

let server: FakeLlmServer;
let sandbox: E2eSandbox;
let receiver: OtlpReceiver;

freshServerAndSandbox((s, b) => {
  server = s;
  sandbox = b;
});
beforeEach(() => {
  receiver = startOtlpReceiver();
});
afterEach(async () => {
  await receiver.close();
});

const GOAL = "Create hello.py printing hello and run it (secret-goal-words)";

/** root delegates to code-editor, which tries a write and a command (both denied), then both answer. */
function delegatedTurns(): FakeTurn[] {
  return [
    { toolCalls: [{ name: "code-editor", args: { goal: "Create hello.py printing hello and run it" } }] },
    {
      toolCalls: [
        { name: "write_file", args: { path: "hello.py", content: "print('hello')\n" } },
        { name: "exec", args: { command: "python3 hello.py" } },
      ],
    },
    { text: "Neither the file nor the command was allowed." },
    { text: "Nothing was created: the write and the command were denied." },
  ];
}

function one(spans: ReceivedSpan[], name: string): ReceivedSpan {
  const found = spans.filter((s) => s.name === name);
  if (found.length !== 1)
    throw new Error(
      `expected one span "${name}", got ${found.length}: ${spans.map((s) => s.name).join(", ")}`,
    );
  return found[0] as ReceivedSpan;
}

describe("traces over OTLP/HTTP", () => {
  test("a root → sub-agent → tool run: GenAI names, attributes and nesting; no prompt text; no key", async () => {
    server.enqueue(...delegatedTurns());
    const result = await runAgentIn(
      sandbox,
      ["run", GOAL, "-o", "json"],
      anthropicEnv(sandbox, server, {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_SERVICE_NAME: "ci-agent",
      }),
    );
    expect(result.code).toBe(0);
    const spans = receiver.spans();
    expect(receiver.requests.every((r) => r.contentType.startsWith("application/json"))).toBe(true);

    const root = one(spans, "invoke_agent root");
    expect(root.parentSpanId).toBeUndefined();
    expect(root.resource["service.name"]).toBe("ci-agent");
    expect(root.attributes).toMatchObject({
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.name": "root",
      "gen_ai.agent.id": "root",
      "gen_ai.provider.name": "anthropic",
      "agent.status": "success",
      "agent.finish_reason": "stop",
    });
    expect(typeof root.attributes["gen_ai.conversation.id"]).toBe("string");
    expect(root.attributes["gen_ai.usage.input_tokens"]).toBeGreaterThan(0);
    expect(typeof root.attributes["agent.cost_usd"]).toBe("number");

    const delegation = one(spans, "execute_tool code-editor");
    expect(delegation.parentSpanId).toBe(root.spanId);
    expect(delegation.attributes).toMatchObject({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "code-editor",
      "gen_ai.tool.type": "function",
      "agent.tool.kind": "agent",
    });
    expect(typeof delegation.attributes["gen_ai.tool.call.id"]).toBe("string");

    const child = one(spans, "invoke_agent code-editor");
    expect(child.parentSpanId).toBe(delegation.spanId);
    expect(child.attributes).toMatchObject({
      "gen_ai.agent.id": "root/code-editor#1",
      "agent.depth": 1,
      "agent.status": "success",
    });

    const write = one(spans, "execute_tool write_file");
    const exec = one(spans, "execute_tool exec");
    for (const tool of [write, exec]) {
      expect(tool.parentSpanId).toBe(child.spanId);
      expect(tool.attributes).toMatchObject({
        "agent.tool.outcome": "denied",
        "agent.tool.decided_by": "default",
        "error.type": "denied",
      });
      expect(tool.status.code).toBe(2); // STATUS_CODE_ERROR
    }

    const chats = spans.filter((s) => s.name.startsWith("chat "));
    expect(chats).toHaveLength(4);
    expect(chats.filter((c) => c.parentSpanId === root.spanId)).toHaveLength(2);
    expect(chats.filter((c) => c.parentSpanId === child.spanId)).toHaveLength(2);
    for (const chat of chats) {
      expect(chat.kind).toBe(3); // SPAN_KIND_CLIENT
      expect(chat.name).toBe(`chat ${chat.attributes["gen_ai.request.model"]}`);
      expect(chat.attributes).toMatchObject({
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": "anthropic",
      });
      expect(chat.attributes["gen_ai.usage.output_tokens"]).toBeGreaterThan(0);
      expect(Array.isArray(chat.attributes["gen_ai.response.finish_reasons"])).toBe(true);
      expect(typeof chat.attributes["agent.cost_usd"]).toBe("number");
    }
    // Every span is in one trace, and each starts no earlier than its parent.
    expect(new Set(spans.map((s) => s.traceId)).size).toBe(1);
    const byId = new Map(spans.map((s) => [s.spanId, s]));
    for (const span of spans) {
      const parent = span.parentSpanId ? byId.get(span.parentSpanId) : undefined;
      if (parent) expect(span.startMs).toBeGreaterThanOrEqual(parent.startMs);
    }

    const payload = receiver.requests.map((r) => `${JSON.stringify(r.headers)}\n${r.body}`).join("\n");
    expect(payload).not.toContain("secret-goal-words");
    expect(payload).not.toContain("print('hello')");
    expect(payload).not.toContain("Nothing was created");
    expect(payload).not.toContain(TEST_KEY);
  });

  test("include_content: true in the user config records the goal and answers, redacted", async () => {
    mkdirSync(join(sandbox.configDir, "agent"), { recursive: true });
    writeFileSync(
      join(sandbox.configDir, "agent", "config.yaml"),
      `telemetry:\n  endpoint: ${receiver.url}\n  include_content: true\n  headers: {x-collector-key: collector-secret-1}\n`,
    );
    server.enqueue({ text: `Done. The key was ${TEST_KEY}.` });
    const result = await runAgentIn(
      sandbox,
      ["run", `say done secret-goal-words ${TEST_KEY}`],
      anthropicEnv(sandbox, server),
    );
    expect(result.code).toBe(0);
    const root = one(receiver.spans(), "invoke_agent root");
    expect(String(root.attributes["gen_ai.input.messages"])).toContain("secret-goal-words");
    expect(String(root.attributes["gen_ai.output.messages"])).toContain("Done. The key was [REDACTED]");
    expect(receiver.requests[0]?.headers["x-collector-key"]).toBe("collector-secret-1");
    expect(receiver.requests.map((r) => r.body).join("\n")).not.toContain(TEST_KEY);
  });

  test("agent helper: one invoke_agent helper span with its chat span, alone or with --tools", async () => {
    server.enqueue({ text: "hi" });
    const env = anthropicEnv(sandbox, server, { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url });
    const single = await runAgentIn(sandbox, ["helper", "say hi secret-goal-words"], env);
    expect(single.code).toBe(0);
    const first = receiver.spans();
    const helper = one(first, "invoke_agent helper");
    expect(helper.attributes).toMatchObject({
      "gen_ai.provider.name": "anthropic",
      "agent.status": "success",
    });
    const chat = first.find((s) => s.name.startsWith("chat "));
    expect(chat?.parentSpanId).toBe(helper.spanId);
    expect(chat?.attributes["gen_ai.usage.output_tokens"]).toBeGreaterThan(0);

    writeFileSync(join(sandbox.workspace, "notes.txt"), "hello\n");
    server.enqueue(
      { toolCalls: [{ name: "read_file", args: { path: "notes.txt" } }] },
      { text: "it says hello" },
    );
    const before = receiver.requests.length;
    const tools = await runAgentIn(
      sandbox,
      ["helper", "--tools", "read_file", "what does notes.txt say"],
      env,
    );
    expect(tools.code).toBe(0);
    const second = receiver.requests.slice(before).flatMap((r) => decodeTraces(r.body));
    const root = second.find((s) => s.name.startsWith("invoke_agent "));
    const read = one(second, "execute_tool read_file");
    expect(read.parentSpanId).toBe(root?.spanId);
    expect(read.attributes).toMatchObject({ "agent.tool.outcome": "ok" });
    const payload = receiver.requests.map((r) => r.body).join("\n");
    expect(payload).not.toContain("secret-goal-words");
    expect(payload).not.toContain("hello");
  });

  test("a failed model call: its chat span and the run's span have status ERROR and error.type", async () => {
    server.enqueue({ status: 401, errorMessage: "invalid x-api-key" });
    const result = await runAgentIn(
      sandbox,
      ["run", "say done", "-o", "json"],
      anthropicEnv(sandbox, server, { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url }),
    );
    expect(result.code).toBe(4);
    const kind = (JSON.parse(result.stdout) as { error: { kind: string } }).error.kind;
    const spans = receiver.spans();
    const root = one(spans, "invoke_agent root");
    const chat = spans.find((s) => s.name.startsWith("chat "));
    for (const span of [root, chat]) {
      expect(span?.status.code).toBe(2);
      expect(span?.attributes["error.type"]).toBe(kind);
    }
    expect(root.attributes["agent.status"]).toBe("error");
  });

  test("TRACEPARENT: the run's root span joins the outer trace under the given parent", async () => {
    server.enqueue({ text: "done" });
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const parentId = "00f067aa0ba902b7";
    const result = await runAgentIn(
      sandbox,
      ["run", "say done"],
      anthropicEnv(sandbox, server, {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        TRACEPARENT: `00-${traceId}-${parentId}-01`,
      }),
    );
    expect(result.code).toBe(0);
    const root = one(receiver.spans(), "invoke_agent root");
    expect(root.traceId).toBe(traceId);
    expect(root.parentSpanId).toBe(parentId);
  });

  test("OTEL_SDK_DISABLED=true and OTEL_TRACES_EXPORTER=none send nothing", async () => {
    const offs: Record<string, string>[] = [{ OTEL_SDK_DISABLED: "true" }, { OTEL_TRACES_EXPORTER: "none" }];
    for (const off of offs) {
      server.enqueue({ text: "done" });
      const env = anthropicEnv(sandbox, server, { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, ...off });
      const result = await runAgentIn(sandbox, ["run", "say done"], env);
      expect(result.code).toBe(0);
    }
    expect(receiver.requests).toHaveLength(0);
  });

  test("a repository's .env cannot turn export on or aim it at its own collector", async () => {
    writeFileSync(join(sandbox.workspace, ".env"), `OTEL_EXPORTER_OTLP_ENDPOINT=${receiver.url}\n`);
    mkdirSync(join(sandbox.workspace, ".agent"), { recursive: true });
    server.enqueue({ text: "done" });
    const result = await runAgentIn(sandbox, ["run", "say done"], anthropicEnv(sandbox, server));
    expect(result.code).toBe(0);
    expect(receiver.requests).toHaveLength(0);
  });
});

describe("a collector that is down never holds the exit back", () => {
  test("closed port: the run ends with its own exit code and one warning line", async () => {
    const port = await closedPort();
    server.enqueue({ text: "done" });
    const result = await runAgentIn(
      sandbox,
      ["run", "say done", "-o", "json"],
      anthropicEnv(sandbox, server, { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}` }),
    );
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ status: "success", exit_code: 0 });
    expect(result.stderr).toContain("agent: warning: telemetry: traces not exported");
  });

  test("a collector that accepts and never answers: exit within 2 s of the export starting", async () => {
    // A blackhole: takes the connection and the request, answers nothing, never closes.
    let connectedAt: number | undefined;
    const blackhole = await Bun.listen({
      hostname: "127.0.0.1",
      port: 0,
      socket: {
        open() {
          connectedAt ??= Date.now();
        },
        data() {},
      },
    });
    try {
      server.enqueue({ text: "done" });
      const result = await runAgentIn(
        sandbox,
        ["run", "say done", "-o", "json"],
        anthropicEnv(sandbox, server, { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${blackhole.port}` }),
      );
      const exitedAt = Date.now();
      expect(result.code).toBe(0);
      expect(result.stderr).toContain("telemetry: traces not exported");
      expect(connectedAt).toBeDefined();
      // The bound the issue sets (the flush waits 1.5 s at most; the rest is the process ending).
      expect(exitedAt - (connectedAt ?? 0)).toBeLessThan(2000);
    } finally {
      blackhole.stop(true);
    }
  });
});
