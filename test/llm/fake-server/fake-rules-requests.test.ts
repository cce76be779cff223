/**
 * The fake server refuses, with the real status and text, the requests OpenAI and Ollama refuse
 * (fake-rules-openai.ts, fake-rules-ollama.ts): raw requests, as a client outside our adapters sends them,
 * so a rule that stopped refusing would fail here rather than let a regression through.
 */
import { describe, expect, test } from "bun:test";
import { fakeServerPerFile } from "../../support/fake-server-per-file.ts";

const server = await fakeServerPerFile();

async function post(path: string, body: Record<string, unknown>) {
  const response = await fetch(`${server.openaiBaseUrl}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer sk-test" },
    body: JSON.stringify({ stream: true, ...body }),
  });
  // A served request streams its turn: read it to the end; a refusal is one JSON error body.
  const text = await response.text();
  const error =
    response.status === 200 ? undefined : (JSON.parse(text) as { error: Record<string, unknown> }).error;
  return { status: response.status, error };
}

describe("OpenAI", () => {
  test("prompt_cache_key over 64 characters: string_above_max_length", async () => {
    const { status, error } = await post("/responses", {
      model: "gpt-6-luna",
      input: "hi",
      prompt_cache_key: "k".repeat(83),
    });
    expect(status).toBe(400);
    expect(error).toEqual({
      message:
        "Invalid 'prompt_cache_key': string too long. Expected a string with maximum length 64, but got a string with length 83 instead.",
      type: "invalid_request_error",
      param: "prompt_cache_key",
      code: "string_above_max_length",
    });
  });

  test("encrypted reasoning asked of gpt-4o", async () => {
    const { status, error } = await post("/responses", {
      model: "gpt-4o",
      input: "hi",
      include: ["reasoning.encrypted_content"],
    });
    expect(status).toBe(400);
    expect(error?.message).toBe("Encrypted content is not supported with this model.");
    expect(error?.param).toBe("include");
  });

  test("summaries for an unverified organization (switch), served once verified", async () => {
    server.settings.unverifiedOrganization = true;
    const refused = await post("/responses", {
      model: "gpt-6-luna",
      input: "hi",
      reasoning: { summary: "auto" },
    });
    expect(refused.status).toBe(400);
    expect(refused.error?.message).toStartWith(
      "Your organization must be verified to generate reasoning summaries. Please go to: https://platform.openai.com/settings/organization/general",
    );
    expect(refused.error?.param).toBe("reasoning.summary");
    expect(refused.error?.code).toBe("unsupported_value");
    server.settings.unverifiedOrganization = false;
    server.enqueue({ protocol: "openai-responses", text: "ok" });
    const served = await post("/responses", {
      model: "gpt-6-luna",
      input: "hi",
      reasoning: { summary: "auto" },
    });
    expect(served.status).toBe(200);
  });
});

describe("Ollama (switch)", () => {
  test("a reasoning value outside high/medium/low/none", async () => {
    server.settings.ollama = { thinkingModels: ["qwen3"] };
    const { status, error } = await post("/chat/completions", {
      model: "qwen3",
      messages: [{ role: "user", content: "hi" }],
      reasoning_effort: "xhigh",
    });
    expect(status).toBe(400);
    expect(error?.message).toBe(
      `invalid reasoning value: 'xhigh' (must be "high", "medium", "low", or "none")`,
    );
    delete server.settings.ollama;
  });

  test("thinking asked of a model that cannot think; none is served", async () => {
    server.settings.ollama = { thinkingModels: [] };
    const refused = await post("/chat/completions", {
      model: "llama3.2",
      messages: [{ role: "user", content: "hi" }],
      reasoning_effort: "low",
    });
    expect(refused.status).toBe(400);
    expect(refused.error?.message).toBe('"llama3.2" does not support thinking');
    server.enqueue({ protocol: "openai", text: "ok" });
    const served = await post("/chat/completions", {
      model: "llama3.2",
      messages: [{ role: "user", content: "hi" }],
      reasoning_effort: "none",
    });
    expect(served.status).toBe(200);
    delete server.settings.ollama;
  });
});
