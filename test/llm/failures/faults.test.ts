/** Failures through withRetry(createProviderStream(...)) against the fake server, for every protocol. */
import { beforeEach, describe, expect, test } from "bun:test";
import type { ModelRequest, ProviderNotice, StreamEvent } from "../../../src/kernel/conversation/stream.ts";
import { emptyUsage } from "../../../src/kernel/conversation/usage.ts";
import { makeProviderError } from "../../../src/llm/errors.ts";
import type { ProviderConfig } from "../../../src/llm/providers.ts";
import { withRetry } from "../../../src/llm/retry.ts";
import { fakeServerPerFile } from "../../support/fake-server-per-file.ts";
import {
  collect,
  expectDone,
  expectError,
  makeRequest,
  PROTOCOLS,
  streamFor,
  TEST_KEYS,
  tap,
} from "../harness.ts";

const server = await fakeServerPerFile();

/** Number of events each protocol sends before its first text delta reaches the caller. */
const EVENTS_BEFORE_TEXT = { anthropic: 2, openai: 1, gemini: 0 } as const;

describe.each(PROTOCOLS)("$kind faults", ({ kind, model }) => {
  let sleeps: number[];
  let notices: ProviderNotice[];
  let firstRequest: number;
  beforeEach(() => {
    sleeps = [];
    notices = [];
    firstRequest = server.requests.length;
  });
  const requestsMade = () => server.requests.length - firstRequest;
  const retrying = (extra: Partial<ProviderConfig> = {}) =>
    withRetry(streamFor(server, kind, extra), {
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      onNotice: (n) => notices.push(n),
    });
  const ask = (signal?: AbortSignal) =>
    makeRequest(kind, model, [{ role: "user", content: "hi" }], signal ? { signal } : {});

  test("one 429 with retry-after, then success: waits as told, 2 requests", async () => {
    server.enqueue({ status: 429, retryAfter: 7, errorMessage: "slow down" }, { text: "after the wait" });
    const result = await collect(retrying()(ask()));
    expect(expectDone(result).message.parts).toEqual([{ type: "text", text: "after the wait" }]);
    expect(sleeps).toEqual([7000]);
    expect(requestsMade()).toBe(2);
    expect(notices[0]).toMatchObject({
      type: "retry",
      attempt: 1,
      delayMs: 7000,
      error: { kind: "rate_limit" },
    });
  });

  test("500 twice, then success: 3 requests", async () => {
    server.enqueue({ status: 500 }, { status: 500 }, { text: "third time" });
    const result = await collect(retrying()(ask()));
    expect(result.text).toBe("third time");
    expect(requestsMade()).toBe(3);
    expect(sleeps).toHaveLength(2);
  });

  test("401 fails at once: one request, the error names provider, model and status, never the key", async () => {
    server.enqueue(
      { status: 401, errorMessage: `invalid x-api-key ${TEST_KEYS[kind]}` },
      { text: "must not be used" },
    );
    const error = expectError(await collect(retrying()(ask()))).error;
    expect(error.kind).toBe("auth");
    expect(error.status).toBe(401);
    expect(error.message).toStartWith(`${kind} ${model}: 401`);
    expect(error.message).not.toContain(TEST_KEYS[kind]);
    expect(requestsMade()).toBe(1);
    expect(sleeps).toEqual([]);
    expect(server.pending()).toBe(1);
  });

  test("a stream cut before any output is retried and the answer appears once", async () => {
    server.enqueue({ text: ["lost"], cutAfterEvents: EVENTS_BEFORE_TEXT[kind] }, { text: ["Hel", "lo"] });
    const result = await collect(retrying()(ask()));
    expect(expectDone(result).message.parts).toEqual([{ type: "text", text: "Hello" }]);
    expect(result.text).toBe("Hello");
    expect(result.events.filter((e) => e.type === "text_start")).toHaveLength(1);
    expect(requestsMade()).toBe(2);
    expect(notices[0]?.type === "retry" && ["network", "truncated"]).toContain(
      notices[0]?.type === "retry" ? notices[0].error.kind : "",
    );
  });

  test("a stream cut after output is a final error: no duplicated text, 1 request", async () => {
    // The connection is dropped once "Hello" has reached us (an event, not a delay), so the cut is
    // after output whatever the machine's load.
    server.enqueue(
      { text: ["Hello", " world", "!"], hangAfterEvents: EVENTS_BEFORE_TEXT[kind] + 1 },
      { text: "must not be used" },
    );
    const result = await collect(
      tap(retrying()(ask()), (event) => {
        if (event.type === "text_delta") server.dropHanging();
      }),
    );
    const error = expectError(result);
    expect(["network", "truncated"]).toContain(error.error.kind);
    expect(result.text).toBe("Hello");
    expect(error.partial?.parts).toEqual([{ type: "text", text: "Hello" }]);
    expect(requestsMade()).toBe(1);
    expect(sleeps).toEqual([]);
    expect(server.pending()).toBe(1);
  });

  test("an idle stream ends with idle_timeout", async () => {
    server.enqueue({ text: ["Hello", " never"], hangAfterEvents: EVENTS_BEFORE_TEXT[kind] + 1 });
    const result = await collect(retrying({ idleTimeoutMs: 300 })(ask()));
    const error = expectError(result);
    expect(error.error.kind).toBe("idle_timeout");
    expect(error.error.message).toContain(`${kind} ${model}`);
    expect(result.text).toBe("Hello");
    expect(requestsMade()).toBe(1);
  });

  test("an abort mid-stream ends with aborted and no retry", async () => {
    server.enqueue({ text: ["one", "two", "three"], chunkDelayMs: 200 }, { text: "must not be used" });
    const controller = new AbortController();
    const events: string[] = [];
    let terminal: string | undefined;
    for await (const event of retrying()(ask(controller.signal))) {
      events.push(event.type);
      if (event.type === "text_delta") controller.abort();
      if (event.type === "error") terminal = event.error.kind;
    }
    expect(terminal).toBe("aborted");
    expect(requestsMade()).toBe(1);
    expect(server.pending()).toBe(1);
  });
});

describe("retry waits", () => {
  test("an abort during the retry wait ends with aborted", async () => {
    server.enqueue({ status: 503, retryAfter: 30 }, { text: "must not be used" });
    const controller = new AbortController();
    const stream = withRetry(streamFor(server, "anthropic"), {
      onNotice: () => setTimeout(() => controller.abort(), 20),
    });
    const result = await collect(
      stream(
        makeRequest("anthropic", "claude-haiku-4-5", [{ role: "user", content: "hi" }], {
          signal: controller.signal,
        }),
      ),
    );
    // Had the 30 s wait not been cut short, the test would have hit its own timeout instead.
    expect(expectError(result).error.kind).toBe("aborted");
    expect(server.pending()).toBe(1);
  });

  test("retries stop after maxRetries and return the last error", async () => {
    server.enqueue({ status: 529 }, { status: 529 }, { status: 529 });
    const stream = withRetry(streamFor(server, "anthropic"), { maxRetries: 2, sleep: async () => {} });
    const before = server.requests.length;
    const error = expectError(
      await collect(stream(makeRequest("anthropic", "claude-haiku-4-5", [{ role: "user", content: "hi" }]))),
    );
    expect(error.error.kind).toBe("overloaded");
    expect(server.requests.length - before).toBe(3);
  });

  test("a warning is not output: a retryable failure after only a warning is still retried", async () => {
    let calls = 0;
    const flaky = async function* (request: ModelRequest): AsyncGenerator<StreamEvent> {
      calls++;
      yield { type: "warning", code: "thinking_dropped", message: "a thinking block was dropped" };
      if (calls === 1) {
        const ctx = { provider: "anthropic", providerName: "anthropic", model: request.model.id } as const;
        yield { type: "error", error: makeProviderError(ctx, "overloaded", "", 529) };
        return;
      }
      const text = "ok";
      yield { type: "text_start", index: 0 };
      yield { type: "text_delta", index: 0, delta: text };
      yield { type: "text_end", index: 0, text };
      const message = { role: "assistant" as const, parts: [{ type: "text" as const, text }] };
      yield {
        type: "done",
        stopReason: "end",
        rawStopReason: "end_turn",
        message,
        usage: emptyUsage(),
        model: "m",
      };
    };
    const stream = withRetry(flaky, { sleep: async () => {} });
    const events = await collect(
      stream(makeRequest("anthropic", "claude-haiku-5-5", [{ role: "user", content: "hi" }])),
    );
    expectDone(events);
    expect(calls).toBe(2);
  });

  test("a retry-after longer than the cap is capped", async () => {
    server.enqueue({ status: 429, retryAfter: 3600 }, { text: "ok" });
    const sleeps: number[] = [];
    const stream = withRetry(streamFor(server, "openai"), {
      maxDelayMs: 5000,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    });
    expectDone(await collect(stream(makeRequest("openai", "gpt-5-mini", [{ role: "user", content: "hi" }]))));
    expect(sleeps).toEqual([5000]);
  });
});
