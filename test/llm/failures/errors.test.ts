/** Error classification, retry-after parsing, and the stream guard's own failures. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { ModelRequest, StreamEvent, StreamFn } from "../../../src/kernel/conversation/stream.ts";
import { classifyError, kindForStatus, parseRetryAfter } from "../../../src/llm/errors.ts";
import { withRetry } from "../../../src/llm/retry.ts";
import { withStreamGuard } from "../../../src/llm/stream-guard.ts";
import { type FakeLlmServer, startFakeLlmServer } from "../../support/fake-llm-server.ts";
import { collect, expectDone, expectError, makeRequest, streamFor } from "../harness.ts";

let server: FakeLlmServer;
beforeAll(async () => {
  server = await startFakeLlmServer();
});
afterAll(async () => {
  await server.close();
});

const ctx = {
  provider: "openai" as const,
  providerName: "openai",
  model: "gpt-5-mini",
  apiKey: "sk-secret-0123456789abcdef",
};

describe("kindForStatus", () => {
  test.each([
    [401, "", "auth"],
    [403, "", "auth"],
    [400, "", "bad_request"],
    [404, "", "bad_request"],
    [413, "", "bad_request"],
    [422, "", "bad_request"],
    [429, "Rate limit reached for requests", "rate_limit"],
    [429, '{"error":{"code":"insufficient_quota"}}', "quota"],
    [
      429,
      "RESOURCE_EXHAUSTED: You exceeded your current quota, please check your plan and billing details",
      "quota",
    ],
    [429, "RESOURCE_EXHAUSTED: too many requests per minute", "rate_limit"],
    [402, "", "quota"],
    [529, "", "overloaded"],
    [503, "", "overloaded"],
    [408, "", "server"],
    [409, "", "server"],
    [500, "", "server"],
    [502, "", "server"],
    [
      400,
      '{"error":{"status":"INVALID_ARGUMENT","message":"API key not valid. Please pass a valid API key."}}',
      "auth",
    ],
  ] as const)("%i %s -> %s", (status, body, kind) => {
    expect(kindForStatus(status, body)).toBe(kind);
  });
});

describe("parseRetryAfter", () => {
  test("seconds, HTTP date, retry-after-ms and Gemini RetryInfo", () => {
    expect(parseRetryAfter({ headers: { "retry-after": "3" } })).toBe(3000);
    expect(parseRetryAfter({ headers: new Headers({ "retry-after": "0.5" }) })).toBe(500);
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(parseRetryAfter({ headers: { "retry-after": "Thu, 01 Jan 2026 00:00:10 GMT" } }, now)).toBe(
      10_000,
    );
    expect(parseRetryAfter({ headers: { "retry-after-ms": "250", "retry-after": "9" } })).toBe(250);
    const body = {
      error: { details: [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "12s" }] },
    };
    expect(parseRetryAfter({ body })).toBe(12_000);
    expect(parseRetryAfter({ headers: {} })).toBeUndefined();
  });
});

describe("classifyError", () => {
  test("messages name provider, model and status and never the key", () => {
    const err = Object.assign(new Error("401 Incorrect API key provided: sk-secret-0123456789abcdef"), {
      status: 401,
      error: { message: "Incorrect API key provided: sk-secret-0123456789abcdef" },
    });
    const error = classifyError(ctx, err);
    expect(error.kind).toBe("auth");
    expect(error.message).toStartWith("openai gpt-5-mini: 401 authentication failed (check OPENAI_API_KEY)");
    expect(error.message).not.toContain("sk-secret-0123456789abcdef");
  });

  test("an aborted signal wins over whatever was thrown", () => {
    const controller = new AbortController();
    controller.abort();
    expect(classifyError(ctx, new Error("socket closed"), controller.signal).kind).toBe("aborted");
  });

  test("connection refused is a network error, and retried", async () => {
    const closed = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
    const port = closed.port;
    await closed.stop(true);
    const notices: string[] = [];
    const stream = withRetry(streamFor(server, "anthropic", { baseUrl: `http://127.0.0.1:${port}` }), {
      maxRetries: 1,
      sleep: async () => {},
      onNotice: (n) => notices.push(n.error.kind),
    });
    const error = expectError(
      await collect(stream(makeRequest("anthropic", "claude-haiku-4-5", [{ role: "user", content: "hi" }]))),
    );
    expect(error.error.kind).toBe("network");
    expect(error.error.message).toStartWith("anthropic claude-haiku-4-5: network error");
    expect(notices).toEqual(["network"]);
  });
});

describe("through the fake server", () => {
  test("gemini: a quota 429 is not retried; retry-after from RetryInfo is kept", async () => {
    server.enqueue(
      {
        status: 429,
        errorBody: {
          error: {
            code: 429,
            status: "RESOURCE_EXHAUSTED",
            message: "You exceeded your current quota, please check your plan and billing details.",
            details: [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "41s" }],
          },
        },
      },
      { text: "must not be used" },
    );
    const before = server.requests.length;
    const stream = withRetry(streamFor(server, "gemini"), { sleep: async () => {} });
    const error = expectError(
      await collect(stream(makeRequest("gemini", "gemini-2.5-flash", [{ role: "user", content: "hi" }]))),
    );
    expect(error.error).toMatchObject({ kind: "quota", status: 429, retryAfterMs: 41_000 });
    expect(server.requests.length - before).toBe(1);
    await collect(streamFor(server, "gemini")(makeRequest("gemini", "g", [{ role: "user", content: "x" }])));
  });

  /** A Gemini 429 body as the API sends it (github.com/google-gemini/gemini-cli/issues/8437). */
  const gemini429 = (quotaId: string, retryDelay: string) => ({
    status: 429,
    errorBody: {
      error: {
        code: 429,
        status: "RESOURCE_EXHAUSTED",
        message: "You exceeded your current quota, please check your plan and billing details.",
        details: [
          {
            "@type": "type.googleapis.com/google.rpc.QuotaFailure",
            violations: [
              {
                quotaMetric: "generativelanguage.googleapis.com/generate_content_free_tier_requests",
                quotaId,
              },
            ],
          },
          { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay },
        ],
      },
    },
  });

  test("gemini: a per-minute quota 429 is a rate limit, retried after its RetryInfo delay", async () => {
    server.enqueue(gemini429("GenerateRequestsPerMinutePerProjectPerModel-FreeTier", "7s"), {
      text: "second try",
    });
    const waits: number[] = [];
    const stream = withRetry(streamFor(server, "gemini"), {
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    const done = expectDone(
      await collect(stream(makeRequest("gemini", "gemini-3.8-flash", [{ role: "user", content: "hi" }]))),
    );
    expect(done.message.parts).toEqual([{ type: "text", text: "second try" }]);
    expect(waits).toEqual([7_000]);
  });

  test("gemini: a per-day quota 429 is a quota error and is not retried", async () => {
    server.enqueue(gemini429("GenerateRequestsPerDayPerProjectPerModel-FreeTier", "7s"), {
      text: "must not be used",
    });
    const before = server.requests.length;
    const stream = withRetry(streamFor(server, "gemini"), { sleep: async () => {} });
    const error = expectError(
      await collect(stream(makeRequest("gemini", "gemini-3.8-flash", [{ role: "user", content: "hi" }]))),
    );
    expect(error.error).toMatchObject({ kind: "quota", status: 429 });
    expect(server.requests.length - before).toBe(1);
    await collect(streamFor(server, "gemini")(makeRequest("gemini", "g", [{ role: "user", content: "x" }])));
  });

  // Silence is not retried by default (a silent provider must fail within one idle window, issue 22);
  // a caller that asks for idle retries gets them.
  test("an idle stream before any output is retried when idle retries are asked for", async () => {
    // The SDK is imported on the first request; load it first so the short idle window measures the server.
    server.enqueue({ text: "warm" });
    await collect(
      streamFor(server, "openai")(makeRequest("openai", "gpt-5-mini", [{ role: "user", content: "x" }])),
    );
    server.enqueue({ text: "lost", hangAfterEvents: 0 }, { text: "second try" });
    const stream = withRetry(streamFor(server, "openai", { idleTimeoutMs: 200 }), {
      sleep: async () => {},
      maxIdleRetries: 1,
    });
    const result = await collect(
      stream(makeRequest("openai", "gpt-5-mini", [{ role: "user", content: "hi" }])),
    );
    expect(expectDone(result).message.parts).toEqual([{ type: "text", text: "second try" }]);
  });
});

describe("errors inside a started stream", () => {
  const MID_STREAM = {
    anthropic: [
      '{"type":"message_start","message":{"id":"m","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"usage":{"input_tokens":1,"output_tokens":1}}}',
      '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
    ],
    openai: [
      '{"error":{"message":"The server had an error","type":"server_error","param":null,"code":null}}',
    ],
    gemini: ['{"error":{"code":503,"message":"The model is overloaded.","status":"UNAVAILABLE"}}'],
  } as const;
  const KIND = { anthropic: "overloaded", openai: "server", gemini: "overloaded" } as const;

  test.each(["anthropic", "openai", "gemini"] as const)("%s: classified and retried", async (kind) => {
    server.enqueue({ rawEvents: [...MID_STREAM[kind]] }, { text: "recovered" });
    const notices: string[] = [];
    const stream = withRetry(streamFor(server, kind), {
      sleep: async () => {},
      onNotice: (n) => notices.push(n.error.kind),
    });
    const result = await collect(stream(makeRequest(kind, "m", [{ role: "user", content: "hi" }])));
    expect(expectDone(result).message.parts).toEqual([{ type: "text", text: "recovered" }]);
    expect(notices).toEqual([KIND[kind]]);
  });
});

describe("stream guard", () => {
  const request: ModelRequest = makeRequest("anthropic", "m", [{ role: "user", content: "hi" }]);
  const scripted = (events: StreamEvent[], then: "end" | "hang" | "throw"): StreamFn =>
    async function* (req) {
      for (const event of events) yield event;
      if (then === "throw") throw new Error("boom");
      if (then === "hang") await new Promise((resolve) => req.signal?.addEventListener("abort", resolve));
    };
  const text: StreamEvent[] = [
    { type: "text_start", index: 0 },
    { type: "text_delta", index: 0, delta: "par" },
  ];

  test("a stream that ends without a terminal event becomes truncated, with the partial text", async () => {
    const error = expectError(await collect(withStreamGuard(scripted(text, "end"))(request)));
    expect(error.error.kind).toBe("truncated");
    expect(error.partial?.parts).toEqual([{ type: "text", text: "par" }]);
  });

  test("a stream that goes quiet becomes idle_timeout and its request is aborted", async () => {
    let innerSignal: AbortSignal | undefined;
    const inner: StreamFn = (req) => {
      innerSignal = req.signal;
      return scripted(text, "hang")(req);
    };
    const error = expectError(await collect(withStreamGuard(inner, { idleTimeoutMs: 100 })(request)));
    expect(error.error.kind).toBe("idle_timeout");
    expect(innerSignal?.aborted).toBe(true);
  });

  test("a stream that throws still ends with one error event", async () => {
    const error = expectError(await collect(withStreamGuard(scripted(text, "throw"))(request)));
    expect(error.error.kind).toBe("unknown");
    expect(error.error.message).toContain("boom");
  });
});
