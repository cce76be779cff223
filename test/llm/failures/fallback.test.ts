import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type {
  ModelRef,
  ModelRequest,
  ProviderError,
  ProviderNotice,
  StreamEvent,
  StreamFn,
} from "../../../src/kernel/index.ts";
import { emptyUsage } from "../../../src/kernel/index.ts";
import { createModelClient } from "../../../src/llm/client.ts";
import { withFallback } from "../../../src/llm/fallback.ts";
import { type FakeLlmServer, startFakeLlmServer } from "../../support/fake-llm-server.ts";

function errorStream(kind: ProviderError["kind"], afterText?: string): StreamFn {
  return async function* (request: ModelRequest): AsyncGenerator<StreamEvent> {
    if (afterText !== undefined) {
      yield { type: "text_start", index: 0 };
      yield { type: "text_delta", index: 0, delta: afterText };
    }
    yield {
      type: "error",
      error: {
        kind,
        message: `${kind}`,
        provider: request.model.provider,
        model: request.model.id,
        status: 529,
      },
    };
  };
}

function answerStream(text: string): StreamFn {
  return async function* (request: ModelRequest): AsyncGenerator<StreamEvent> {
    yield { type: "text_start", index: 0 };
    yield { type: "text_delta", index: 0, delta: text };
    yield { type: "text_end", index: 0, text };
    yield {
      type: "done",
      stopReason: "end",
      rawStopReason: "end_turn",
      message: { role: "assistant", parts: [{ type: "text", text }] },
      usage: emptyUsage(),
      model: request.model.id,
    };
  };
}

const a: ModelRef = { provider: "anthropic", providerName: "anthropic", id: "claude-haiku-5-5" };
const b: ModelRef = { provider: "openai", providerName: "openai", id: "gpt-6-luna" };
const c: ModelRef = { provider: "gemini", providerName: "gemini", id: "gemini-3.5-flash-lite" };

function request(model: ModelRef): ModelRequest {
  return { model, system: "s", messages: [{ role: "user", content: "hi" }], tools: [] };
}

async function collect(stream: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

describe("withFallback", () => {
  test("an overloaded model hands the request to the next candidate and reports it", async () => {
    const notices: ProviderNotice[] = [];
    const seen: string[] = [];
    const streams: Record<string, StreamFn> = {
      [a.id]: errorStream("overloaded"),
      [b.id]: answerStream("hello"),
    };
    const stream = withFallback(
      (ref) => {
        seen.push(ref.id);
        return streams[ref.id]!;
      },
      (n) => notices.push(n),
    );
    const events = await collect(stream(request({ ...a, fallbacks: [b, c] })));
    expect(seen).toEqual([a.id, b.id]);
    expect(events.at(-1)).toMatchObject({ type: "done", model: b.id });
    expect(events.some((e) => e.type === "error")).toBe(false);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ type: "fallback", from: a, to: b, error: { kind: "overloaded" } });
  });

  test("quota and rate limits fall back; the chain is walked to the end", async () => {
    const notices: ProviderNotice[] = [];
    const streams: Record<string, StreamFn> = {
      [a.id]: errorStream("quota"),
      [b.id]: errorStream("rate_limit"),
      [c.id]: answerStream("from gemini"),
    };
    const events = await collect(
      withFallback(
        (ref) => streams[ref.id]!,
        (n) => notices.push(n),
      )(request({ ...a, fallbacks: [b, c] })),
    );
    expect(events.at(-1)).toMatchObject({ type: "done", model: c.id });
    expect(notices.map((n) => (n.type === "fallback" ? n.to.id : ""))).toEqual([b.id, c.id]);
  });

  test("the next candidate sees the rest of the chain as its fallbacks", async () => {
    const models: ModelRef[] = [];
    const stream = withFallback(
      (ref) =>
        async function* (req: ModelRequest): AsyncGenerator<StreamEvent> {
          models.push(req.model);
          yield* (ref.id === c.id ? answerStream("ok") : errorStream("overloaded"))(req);
        },
    );
    await collect(stream(request({ ...a, fallbacks: [b, c] })));
    expect(models.map((m) => [m.id, m.fallbacks?.map((f) => f.id)])).toEqual([
      [a.id, [b.id, c.id]],
      [b.id, [c.id]],
      [c.id, undefined],
    ]);
  });

  test("no fallback for errors a switch cannot help (auth), or after output began", async () => {
    const auth = await collect(withFallback(() => errorStream("auth"))(request({ ...a, fallbacks: [b] })));
    expect(auth.at(-1)).toMatchObject({ type: "error", error: { kind: "auth", model: a.id } });
    const late = await collect(
      withFallback((ref) => (ref.id === a.id ? errorStream("overloaded", "par") : answerStream("x")))(
        request({ ...a, fallbacks: [b] }),
      ),
    );
    expect(late.map((e) => e.type)).toEqual(["text_start", "text_delta", "error"]);
  });

  test("the last candidate's error is the result", async () => {
    const events = await collect(
      withFallback(() => errorStream("overloaded"))(request({ ...a, fallbacks: [b] })),
    );
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: "error", error: { kind: "overloaded", model: b.id } });
  });
});

describe("createModelClient against the fake server", () => {
  let server: FakeLlmServer;
  beforeAll(async () => {
    server = await startFakeLlmServer();
  });
  afterAll(async () => {
    await server.close();
  });

  test("Anthropic overloaded (529) → OpenAI answers, with a fallback notice", async () => {
    server.enqueue(
      { status: 529, errorMessage: "Overloaded", protocol: "anthropic" },
      { text: "from openai", protocol: "openai-responses" },
    );
    const notices: ProviderNotice[] = [];
    const env = {
      ANTHROPIC_API_KEY: "sk-ant-test-0000000001",
      ANTHROPIC_BASE_URL: server.anthropicBaseUrl,
      OPENAI_API_KEY: "sk-test-000000000000000001",
      OPENAI_BASE_URL: server.openaiBaseUrl,
    };
    const client = await createModelClient({
      env,
      workspaceRoot: process.cwd(),
      onNotice: (n) => notices.push(n),
      retry: { maxRetries: 0 },
      config: { models: { fast: ["anthropic:claude-haiku-5-5", "openai:gpt-6-luna"] } },
    });
    const resolved = client.resolve("fast");
    const before = server.requests.length;
    const events = await collect(client.stream(request(resolved.ref)));
    expect(events.at(-1)).toMatchObject({ type: "done" });
    const fallback = notices.find((n) => n.type === "fallback");
    expect(fallback).toMatchObject({
      from: { id: "claude-haiku-5-5" },
      to: { id: "gpt-6-luna" },
      error: { kind: "overloaded" },
    });
    expect(server.requests.slice(before).map((r) => [r.protocol, r.model])).toEqual([
      ["anthropic", "claude-haiku-5-5"],
      ["openai-responses", "gpt-6-luna"],
    ]);
  });
});

describe("createModelClient options", () => {
  test("--record and --replay together are a usage error", async () => {
    await expect(
      createModelClient({
        env: {},
        workspaceRoot: process.cwd(),
        record: "/tmp/a.jsonl",
        replay: "/tmp/b.jsonl",
      }),
    ).rejects.toThrow("cannot be used together");
  });

  test("an openai-compatible model is free and unknown to the catalog", async () => {
    const client = await createModelClient({
      env: {},
      workspaceRoot: process.cwd(),
      config: { providers: { ollama: { kind: "openai-compatible", baseUrl: "http://127.0.0.1:1/v1" } } },
    });
    const info = client.info(client.resolve("ollama:llama3.2").ref);
    expect(info).toMatchObject({ known: false, price: { input: 0, output: 0 } });
    expect(
      client.info({ provider: "anthropic", providerName: "anthropic", id: "claude-haiku-4-5" }).known,
    ).toBe(true);
  });
});
