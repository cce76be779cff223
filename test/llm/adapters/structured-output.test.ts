/**
 * Structured output on the wire: the fake server refuses what the real APIs refuse for the schema
 * parameters (raw requests, so our adapters cannot hide a gap in the rules), and the adapters' request
 * builders send only what those rules accept.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { ModelRequest } from "../../../src/kernel/index.ts";
import { buildRequest as anthropicRequest } from "../../../src/llm/adapters/anthropic-convert.ts";
import { isStrictCompatible } from "../../../src/llm/adapters/response-schema.ts";
import { type FakeLlmServer, startFakeLlmServer } from "../../support/fake-llm-server.ts";

let server: FakeLlmServer;
beforeAll(async () => {
  server = await startFakeLlmServer();
});
afterAll(async () => {
  await server.close();
});

async function post(path: string, body: unknown): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json().catch(() => null) };
}

const OPEN = { type: "object", properties: { a: { type: "string" } }, required: ["a"] };
const NESTED_OPTIONAL = {
  type: "object",
  additionalProperties: false,
  required: ["a"],
  properties: {
    a: {
      type: "object",
      additionalProperties: false,
      required: ["x"],
      properties: { x: { type: "string" }, y: { type: "string" } },
    },
  },
};

describe("the fake refuses schema parameters as the real APIs do", () => {
  test("OpenAI Responses, strict: an object without additionalProperties: false", async () => {
    const refused = await post("/v1/responses", {
      model: "gpt-6-luna",
      input: "hi",
      text: { format: { type: "json_schema", name: "sky", schema: OPEN, strict: true } },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      error: {
        message:
          "Invalid schema for response_format 'sky': In context=(), 'additionalProperties' is required to be supplied and to be false.",
        type: "invalid_request_error",
        param: "text.format.schema",
        code: "invalid_json_schema",
      },
    });
  });

  test("OpenAI Chat Completions, strict: a nested property missing from required", async () => {
    const refused = await post("/v1/chat/completions", {
      model: "llama3.2",
      messages: [{ role: "user", content: "hi" }],
      response_format: {
        type: "json_schema",
        json_schema: { name: "sky", schema: NESTED_OPTIONAL, strict: true },
      },
    });
    expect(refused.status).toBe(400);
    expect((refused.body as { error: { message: string; param: string } }).error).toMatchObject({
      message:
        "Invalid schema for response_format 'sky': In context=('properties', 'a'), 'required' is required to be supplied and to be an array including every key in properties. Missing 'y'.",
      param: "response_format",
    });
  });

  test("Anthropic: an object schema in output_config.format that is not closed", async () => {
    const refused = await post("/v1/messages", {
      model: "claude-haiku-5-5",
      max_tokens: 10,
      messages: [{ role: "user", content: "hi" }],
      output_config: { format: { type: "json_schema", schema: OPEN } },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      type: "error",
      error: {
        type: "invalid_request_error",
        message:
          "output_config.format.schema: For 'object' type, 'additionalProperties' must be explicitly set to false",
      },
    });
  });

  test("Gemini before 3: a JSON mime type beside function declarations; Gemini 3 accepts both", async () => {
    const body = {
      contents: [{ role: "user", parts: [{ text: "hi" }] }],
      tools: [{ functionDeclarations: [{ name: "read_file", parameters: { type: "object" } }] }],
      generationConfig: { responseMimeType: "application/json", responseJsonSchema: OPEN },
    };
    const refused = await post("/v1beta/models/gemini-2.5-flash:streamGenerateContent", body);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      error: {
        code: 400,
        message: "Function calling with a response mime type: 'application/json' is unsupported",
        status: "INVALID_ARGUMENT",
      },
    });
    server.enqueue({ text: '{"a":"b"}', protocol: "gemini" });
    const served = await fetch(`${server.url}/v1beta/models/gemini-3.8-flash:streamGenerateContent?alt=sse`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(served.status).toBe(200);
    await served.text();
    expect(server.pending()).toBe(0);
  });
});

describe("what the adapters send", () => {
  const request = (schema: Record<string, unknown>): ModelRequest => ({
    model: { provider: "anthropic", providerName: "anthropic", id: "claude-haiku-5-5" },
    system: "",
    messages: [{ role: "user", content: "hi" }],
    tools: [],
    responseSchema: { name: "answer", schema },
  });

  test("Anthropic: nested objects closed; a schema the SDK cannot transform is not sent (checked on our side)", () => {
    const params = anthropicRequest(request(NESTED_OPTIONAL));
    const sent = params.output_config?.format?.schema as { properties: { a: Record<string, unknown> } };
    expect(sent.properties.a.additionalProperties).toBe(false);
    expect(anthropicRequest(request({ properties: { a: {} } })).output_config).toBeUndefined();
  });

  test("OpenAI strict only when every object is closed and requires every property", () => {
    expect(isStrictCompatible(NESTED_OPTIONAL)).toBe(false);
    expect(isStrictCompatible(OPEN)).toBe(false);
    expect(
      isStrictCompatible({
        ...NESTED_OPTIONAL,
        properties: { a: { ...NESTED_OPTIONAL.properties.a, required: ["x", "y"] } },
      }),
    ).toBe(true);
    expect(isStrictCompatible({ type: "array", items: { type: "string" } })).toBe(false);
  });
});
