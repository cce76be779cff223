/**
 * Requests the APIs accept, for every model (issue 20): the real adapters against the fake server, whose
 * rules refuse what the real APIs refuse (test/support/fake-rules-*.ts, with the real error texts).
 */
import { describe, expect, test } from "bun:test";
import type { Message } from "../../../src/kernel/index.ts";
import { fakeServerPerFile } from "../../support/fake-server-per-file.ts";
import { collect, expectDone, makeRequest, streamFor } from "../harness.ts";

const server = await fakeServerPerFile();

const hi: Message[] = [{ role: "user", content: "hi" }];

async function send(
  kind: "anthropic" | "openai" | "gemini",
  model: string,
  extra: Parameters<typeof makeRequest>[3] = {},
  config: { compatible?: boolean } = {},
) {
  const before = server.requests.length;
  const compatible = kind === "openai" ? (config.compatible ?? false) : undefined;
  const protocol = kind === "openai" && !compatible ? "openai-responses" : kind;
  server.enqueue({ protocol, text: "ok" });
  const stream = streamFor(server, kind, compatible === undefined ? {} : { compatible });
  const result = await collect(stream(makeRequest(kind, model, hi, extra)));
  const request = server.requests[before];
  return { result, body: request?.body as Record<string, unknown>, headers: request?.headers ?? {} };
}

describe("OpenAI Responses efforts", () => {
  const cases: [string, "minimal" | "none", string][] = [
    // Issue 20: gpt-5.6-sol, gpt-5.6-terra and gpt-6-sol had no accepted list, so `minimal` went out raw.
    ["gpt-5.6-sol", "minimal", "low"],
    ["gpt-5.6-terra", "minimal", "low"],
    ["gpt-6-sol", "minimal", "low"],
    // The GPT-6.2 models refuse none and minimal.
    ["gpt-6.2-astra", "none", "low"],
    ["gpt-6.2-sol", "minimal", "low"],
  ];
  test.each(cases)("%s asked for %s is sent %s and served", async (model, asked, sent) => {
    const { result, body } = await send("openai", model, { reasoningEffort: asked });
    expectDone(result);
    expect((body.reasoning as { effort?: string }).effort).toBe(sent);
  });

  test("the fake refuses `minimal` on GPT-5.6 with OpenAI's text", async () => {
    const { result } = await send("openai", "gpt-5.6-sol", {}, {});
    expectDone(result);
    // Sent raw (as a client outside the catalog would), the API's own 400 comes back.
    const before = server.requests.length;
    const response = await fetch(`${server.openaiBaseUrl}/responses`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer sk-test" },
      body: JSON.stringify({
        model: "gpt-5.6-sol",
        input: "hi",
        stream: true,
        reasoning: { effort: "minimal" },
      }),
    });
    expect(server.requests.length).toBe(before + 1);
    expect(response.status).toBe(400);
    const error = ((await response.json()) as { error: { message: string } }).error;
    expect(error.message).toBe(
      "'minimal' is not supported with the 'gpt-5.6-sol' model. Supported values are: 'none', 'low', 'medium', 'high', 'xhigh', and 'max'.",
    );
  });

  test("a model outside the catalog gets no effort unless the user set one, then as given", async () => {
    const unset = await send("openai", "gpt-4.9-nova");
    expectDone(unset.result);
    expect((unset.body.reasoning as { effort?: string } | undefined)?.effort).toBeUndefined();
    const set = await send("openai", "gpt-4.9-nova", { reasoningEffort: "minimal" });
    expect((set.body.reasoning as { effort?: string }).effort).toBe("minimal");
  });

  test("a catalog model that does not reason gets no effort", async () => {
    const { body } = await send("openai", "gpt-4.1", { reasoningEffort: "high" });
    expect(body.reasoning).toBeUndefined();
  });
});

describe("OpenAI Responses caching and reasoning", () => {
  test("prompt_cache_key: the caller's key, else one stable for the same system prompt and tools", async () => {
    const given = await send("openai", "gpt-6.2-sol", { cacheKey: "session-1:root" });
    expect(given.body.prompt_cache_key).toBe("session-1:root");
    const first = await send("openai", "gpt-6.2-sol");
    const second = await send("openai", "gpt-6.2-sol");
    expect(first.body.prompt_cache_key).toMatch(/^agent-[0-9a-f]{32}$/);
    expect(second.body.prompt_cache_key).toBe(first.body.prompt_cache_key);
    const other = await send("openai", "gpt-6.2-sol", { system: "Another agent." });
    expect(other.body.prompt_cache_key).not.toBe(first.body.prompt_cache_key);
  });

  test("reasoning.summary auto: OpenAI reasoning arrives as progress, never in the answer", async () => {
    server.enqueue({ protocol: "openai-responses", reasoning: ["Checking ", "the file."], text: "Done." });
    const result = await collect(
      streamFor(server, "openai", { compatible: false })(makeRequest("openai", "gpt-6.2-sol", hi)),
    );
    expectDone(result);
    const reasoning = result.events.flatMap((e) => (e.type === "reasoning_delta" ? [e.delta] : [])).join("");
    expect(reasoning).toBe("Checking the file.");
    expect(result.text).toBe("Done.");
    const body = server.requests.at(-1)?.body as { reasoning?: { summary?: string } } | undefined;
    expect(body?.reasoning?.summary).toBe("auto");
  });

  test("input_transformations: reasoning OpenAI withheld is a warning, like Anthropic's thinking_dropped", async () => {
    server.enqueue({
      protocol: "openai-responses",
      text: "ok",
      inputTransformations: [
        { id: "rs_abc", type: "reasoning", action: "removed", reason: "model_mismatch" },
      ],
    });
    const result = await collect(
      streamFor(server, "openai", { compatible: false })(makeRequest("openai", "gpt-6.2-sol", hi)),
    );
    expectDone(result);
    expect(result.events.filter((e) => e.type === "warning")).toEqual([
      {
        type: "warning",
        code: "reasoning_dropped",
        message: "the API withheld 1 reasoning item sent back: rs_abc (model_mismatch)",
      },
    ]);
  });
});

describe("Anthropic block_binding", () => {
  test("a Claude 5 model without the prefix check gets neither block_binding nor the binding beta", async () => {
    const { result, body, headers } = await send("anthropic", "claude-opus-5");
    expectDone(result);
    expect((body.thinking as Record<string, unknown>).block_binding).toBeUndefined();
    expect(headers["anthropic-beta"] ?? "").not.toContain("thinking-binding-controls");
  });

  test("a model with the prefix check gets both", async () => {
    const { result, body, headers } = await send("anthropic", "claude-sonnet-5-5");
    expectDone(result);
    expect((body.thinking as Record<string, unknown>).block_binding).toEqual({
      prefix_mismatch_behavior: "drop_block",
    });
    expect(headers["anthropic-beta"]).toContain("thinking-binding-controls-2026-08-01");
  });
});

describe("Gemini 4 Carbon's thinking levels", () => {
  // docs.cloud.google.com/gemini-enterprise-agent-platform/models/gemini/4-carbon: LOW, MEDIUM (default),
  // HIGH. Uncatalogued, it got the requested effort raw.
  const cases: [string, "minimal" | "medium" | "max", string][] = [
    ["minimal", "minimal", "LOW"],
    ["medium", "medium", "MEDIUM"],
    ["max", "max", "HIGH"],
  ];
  test.each(cases)("asked for %s, thinkingConfig.thinkingLevel is %s -> %s", async (_label, asked, sent) => {
    const { result, body } = await send("gemini", "gemini-4-carbon", { reasoningEffort: asked });
    expectDone(result);
    const config = (body.generationConfig as { thinkingConfig?: { thinkingLevel?: string } }).thinkingConfig;
    expect(config?.thinkingLevel).toBe(sent);
  });
});

describe("Gemini temperature and compatible servers", () => {
  test("no temperature to Gemini 3+, listed or not; older models keep it", async () => {
    for (const model of ["gemini-4-argon", "gemini-3.1-flash-lite", "gemini-5-unlisted"]) {
      const { result, body } = await send("gemini", model, { temperature: 0.3 });
      expectDone(result);
      expect((body.generationConfig as Record<string, unknown> | undefined)?.temperature).toBeUndefined();
    }
    const old = await send("gemini", "gemini-2.0-flash", { temperature: 0.3 });
    expect((old.body.generationConfig as Record<string, unknown>).temperature).toBe(0.3);
  });

  test("a compatible server gets reasoning_effort when the user set one, and none otherwise", async () => {
    const set = await send("openai", "qwen3:8b", { reasoningEffort: "high" }, { compatible: true });
    expectDone(set.result);
    expect(set.body.reasoning_effort).toBe("high");
    const unset = await send("openai", "qwen3:8b", {}, { compatible: true });
    expect(unset.body.reasoning_effort).toBeUndefined();
  });
});
