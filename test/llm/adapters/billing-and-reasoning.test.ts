/**
 * Billed usage per protocol (each bucket once, thoughts as output), cost per request with long-context
 * tiers, reasoning settings sent per model, and every provider stop reason mapped — through the fake
 * server, the official SDKs and our adapters.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { ModelRequest, ReasoningEffort, StopReason } from "../../../src/kernel/conversation/stream.ts";
import { emptyUsage } from "../../../src/kernel/conversation/usage.ts";
import { roundEffort } from "../../../src/llm/adapters/effort.ts";
import { catalogEntry, costOf, modelInfo } from "../../../src/llm/catalog.ts";
import { DEFAULT_TIER_MODELS } from "../../../src/llm/resolve.ts";
import { type FakeLlmServer, startFakeLlmServer } from "../../support/fake-llm-server.ts";
import { collect, expectDone, makeRequest, PROTOCOLS, streamFor } from "../harness.ts";

let server: FakeLlmServer;
beforeAll(async () => {
  server = await startFakeLlmServer();
});
afterAll(async () => {
  await server.close();
});

const ask = (kind: "anthropic" | "openai" | "gemini", model: string, extra: Partial<ModelRequest> = {}) =>
  makeRequest(kind, model, [{ role: "user", content: "hi" }], extra);

async function body(kind: "anthropic" | "openai" | "gemini", request: ModelRequest) {
  server.enqueue({ text: "ok" });
  expectDone(await collect(streamFor(server, kind)(request)));
  return server.requests.at(-1)?.body as Record<string, unknown>;
}

describe("billed usage through each protocol", () => {
  const billed = { input: 100, output: 50, cacheRead: 400, cacheWrite: 30, reasoning: 20 };
  for (const { kind, model } of PROTOCOLS) {
    test(`${kind}: cached input is counted once, reasoning inside output`, async () => {
      const usage = kind === "gemini" ? { ...billed, cacheWrite: 0, toolUse: 7 } : billed;
      server.enqueue({ text: "ok", usage });
      const done = expectDone(await collect(streamFor(server, kind)(ask(kind, model))));
      expect(done.usage).toEqual({
        inputTokens: 100,
        outputTokens: 50,
        cacheReadTokens: 400,
        cacheWriteTokens: kind === "gemini" ? 0 : 30,
        reasoningTokens: 20,
      });
    });
  }
});

describe("cost", () => {
  test("each bucket is priced once at its own rate", () => {
    const usage = {
      inputTokens: 100_000,
      outputTokens: 20_000,
      cacheReadTokens: 150_000,
      cacheWriteTokens: 10_000,
      reasoningTokens: 5_000,
    };
    // gpt-6-luna: $0.10 input, $0.50 output, $0.01 cache read, $0.125 cache write; reasoning is inside output.
    expect(costOf(usage, modelInfo("gpt-6-luna"))).toBeCloseTo(
      (100_000 * 0.1 + 20_000 * 0.5 + 150_000 * 0.01 + 10_000 * 0.125) / 1e6,
      12,
    );
  });

  test("a prompt over the long-context threshold bills every token of the request at the long rates", () => {
    const haiku = modelInfo("claude-haiku-5-5");
    const small = { ...emptyUsage(), inputTokens: 90_000, outputTokens: 1_000 };
    const large = { ...emptyUsage(), inputTokens: 90_000, cacheReadTokens: 20_000, outputTokens: 1_000 };
    expect(costOf(small, haiku)).toBeCloseTo((90_000 * 0.1 + 1_000 * 0.5) / 1e6, 12);
    expect(costOf(large, haiku)).toBeCloseTo((90_000 * 0.5 + 20_000 * 0.05 + 1_000 * 2.5) / 1e6, 12);
    const astra = modelInfo("gpt-6-astra");
    const long = { ...emptyUsage(), inputTokens: 300_000, outputTokens: 1_000 };
    expect(costOf(long, astra)).toBeCloseTo((300_000 * 20 + 1_000 * 75) / 1e6, 9);
  });

  test("every tier default is a known catalog model with current prices", () => {
    for (const tier of Object.values(DEFAULT_TIER_MODELS))
      for (const ids of Object.values(tier)) for (const id of ids) expect(modelInfo(id).known).toBe(true);
    expect(DEFAULT_TIER_MODELS.best.anthropic[0]).toBe("claude-fable-5-2");
    expect(modelInfo("claude-fable-5-2").price).toEqual({
      input: 8,
      output: 40,
      cacheRead: 0.2,
      cacheWrite: 10,
    });
    // Retired models stay in the catalog (models.dev lists them) for their dates, never as defaults.
    expect(catalogEntry("gemini-2.5-flash")?.status).toBe("deprecated");
    expect(catalogEntry("gemini-3-pro-preview")?.retires).toBe("2026-03-09");
  });
});

describe("reasoning settings", () => {
  test("an effort maps to the weakest accepted one at or above it, else the strongest", () => {
    const claude: ReasoningEffort[] = ["low", "medium", "high", "xhigh", "max"];
    expect(roundEffort("none", claude)).toBe("low");
    expect(roundEffort("minimal", claude)).toBe("low");
    expect(roundEffort("max", ["low", "medium", "high"])).toBe("high");
    expect(roundEffort("minimal", ["low", "medium", "high"])).toBe("low");
    expect(roundEffort("medium", ["low", "high"])).toBe("high");
    // Rounds up even where a weaker value is nearer: never less reasoning than asked below the ceiling.
    expect(roundEffort("minimal", ["none", "medium"])).toBe("medium");
  });

  test("anthropic: adaptive thinking, summarized display, drop_block, effort and the catalog's max_tokens", async () => {
    const sent = await body(
      "anthropic",
      ask("anthropic", "claude-sonnet-5-5", { reasoningEffort: "minimal" }),
    );
    expect(sent.thinking).toEqual({
      type: "adaptive",
      display: "summarized",
      block_binding: { prefix_mismatch_behavior: "drop_block" },
    });
    expect(sent.output_config).toEqual({ effort: "low" });
    expect(sent.max_tokens).toBe(128_000);
    expect(sent).not.toHaveProperty("temperature");
    const header = server.requests.at(-1)?.headers["anthropic-beta"] ?? "";
    expect(header).toContain("thinking-binding-controls-2026-08-01");
  });

  test("anthropic: a model without adaptive thinking gets no thinking settings; max_tokens never above its limit", async () => {
    const sent = await body("anthropic", ask("anthropic", "claude-haiku-4-5", { maxOutputTokens: 500_000 }));
    expect(sent).not.toHaveProperty("thinking");
    expect(sent).not.toHaveProperty("output_config");
    expect(sent.max_tokens).toBe(64_000);
    const unknown = await body("anthropic", ask("anthropic", "claude-next-9"));
    expect(unknown.max_tokens).toBe(8_192);
    const asked = await body("anthropic", ask("anthropic", "claude-next-9", { maxOutputTokens: 50_000 }));
    expect(asked.max_tokens).toBe(50_000);
  });

  test("gemini: thinkingLevel from the effort, only values the model accepts, thoughts included", async () => {
    const flash = await body("gemini", ask("gemini", "gemini-3.8-flash", { reasoningEffort: "minimal" }));
    expect((flash.generationConfig as Record<string, unknown>).thinkingConfig).toEqual({
      includeThoughts: true,
      thinkingLevel: "LOW",
    });
    const lite = await body("gemini", ask("gemini", "gemini-3.5-flash-lite"));
    // No effort asked: the catalog default for tool-using agents on Flash-Lite is MEDIUM, not its MINIMAL.
    expect((lite.generationConfig as Record<string, unknown>).thinkingConfig).toEqual({
      includeThoughts: true,
      thinkingLevel: "MEDIUM",
    });
    const pro = await body("gemini", ask("gemini", "gemini-3.1-pro-preview", { reasoningEffort: "max" }));
    expect(
      (pro.generationConfig as Record<string, { thinkingLevel?: string }>).thinkingConfig?.thinkingLevel,
    ).toBe("HIGH");
    const unknown = await body("gemini", ask("gemini", "gemini-9-experimental"));
    expect(unknown.generationConfig ?? {}).not.toHaveProperty("thinkingConfig");
  });

  test("gemini: xhigh is XHIGH on the Gemini 4 models that list it, HIGH on Gemini 3 (which refuses XHIGH)", async () => {
    const level = (sent: Record<string, unknown>) =>
      (sent.generationConfig as Record<string, { thinkingLevel?: string }>).thinkingConfig?.thinkingLevel;
    const neon = await body("gemini", ask("gemini", "gemini-4-neon", { reasoningEffort: "xhigh" }));
    expect(level(neon)).toBe("XHIGH");
    const hydrogen = await body("gemini", ask("gemini", "gemini-4-hydrogen", { reasoningEffort: "xhigh" }));
    expect(level(hydrogen)).toBe("XHIGH");
    const pro = await body("gemini", ask("gemini", "gemini-3.1-pro-preview", { reasoningEffort: "xhigh" }));
    expect(level(pro)).toBe("HIGH");
  });
});

describe("stop reasons", () => {
  const cases: [kind: "anthropic" | "gemini" | "openai", raw: string, normalized: StopReason][] = [
    ["anthropic", "max_tokens", "max_tokens"],
    ["anthropic", "pause_turn", "pause"],
    ["anthropic", "model_context_window_exceeded", "context_window"],
    ["anthropic", "refusal", "refusal"],
    ["anthropic", "stop_sequence", "end"],
    ["gemini", "MAX_TOKENS", "max_tokens"],
    ["gemini", "MALFORMED_FUNCTION_CALL", "malformed_call"],
    ["gemini", "UNEXPECTED_TOOL_CALL", "malformed_call"],
    ["gemini", "CONTINUATION", "pause"],
    ["gemini", "SAFETY", "refusal"],
    ["gemini", "RECITATION", "refusal"],
    ["gemini", "PROHIBITED_CONTENT", "refusal"],
    ["gemini", "TOO_MANY_TOOL_CALLS", "other"],
    ["gemini", "MODEL_ARMOR", "refusal"],
    ["gemini", "ESCALATION", "refusal"],
    ["gemini", "PUP_LIMITED_DISABLED", "refusal"],
    ["gemini", "MISSING_THOUGHT_SIGNATURE", "refusal"],
    ["openai", "length", "max_tokens"],
    ["openai", "content_filter", "refusal"],
  ];
  for (const [kind, raw, normalized] of cases) {
    test(`${kind} ${raw} -> ${normalized}`, async () => {
      const model = PROTOCOLS.find((p) => p.kind === kind)?.model ?? "";
      server.enqueue({ text: "partial", stopReason: raw });
      const done = expectDone(await collect(streamFor(server, kind)(ask(kind, model))));
      expect(done.rawStopReason).toBe(raw);
      expect(done.stopReason).toBe(normalized);
    });
  }
});

describe("gemini CONTINUATION", () => {
  test("the token is kept on the message; a history ending with it re-sends the request with the token", async () => {
    const ask = makeRequest("gemini", "gemini-3.8-flash", [{ role: "user", content: "write a long essay" }]);
    server.enqueue({ text: "Part one…", stopReason: "CONTINUATION", continuationToken: "Y29udGludWU=" });
    const first = expectDone(await collect(streamFor(server, "gemini")(ask)));
    expect(first.stopReason).toBe("pause");
    expect(first.message.continuationToken).toBe("Y29udGludWU=");
    const firstBody = server.requests.at(-1)?.body as { contents: unknown[] };

    server.enqueue({ text: " part two." });
    const again = { ...ask, messages: [...ask.messages, first.message] };
    expectDone(await collect(streamFor(server, "gemini")(again)));
    const sent = server.requests.at(-1)?.body as { contents: unknown[]; continuationToken?: string };
    expect(sent.continuationToken).toBe("Y29udGludWU=");
    expect(sent.contents).toEqual(firstBody.contents);
  });
});
