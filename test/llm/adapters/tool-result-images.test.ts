/**
 * An image in a tool result reaches the model as an image on each wire protocol, in the request the fake
 * server logged (and which its rules, like the real APIs, accept): Anthropic tool_result image blocks,
 * Responses function_call_output input_image items, Gemini functionResponse inline parts, and for Chat
 * Completions (text-only tool messages) one user message with the images right after the tool results.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Message } from "../../../src/kernel/conversation/messages.ts";
import { type FakeLlmServer, startFakeLlmServer } from "../../support/fake-llm-server.ts";
import { collect, expectDone, makeRequest, streamFor } from "../harness.ts";

const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

let server: FakeLlmServer;
beforeAll(async () => {
  server = await startFakeLlmServer();
});
afterAll(async () => {
  await server.close();
});

/** A call to a screenshot tool and a plain one, answered in one turn; the first result has an image. */
function history(): Message[] {
  return [
    { role: "user", content: "look" },
    {
      role: "assistant",
      parts: [
        // Gemini wants the first call of a step signed; the others ignore the signature.
        { type: "tool_call", id: "call_1", name: "mcp__ui__screenshot", arguments: {}, signature: "sig" },
        { type: "tool_call", id: "call_2", name: "read_file", arguments: { path: "a" } },
      ],
    },
    {
      role: "tool",
      toolCallId: "call_1",
      toolName: "mcp__ui__screenshot",
      content: "the screen\n[image 1: image/png, attached]",
      isError: false,
      images: [{ type: "image", mediaType: "image/png", data: PNG }],
    },
    { role: "tool", toolCallId: "call_2", toolName: "read_file", content: "a's text", isError: false },
  ];
}

async function send(kind: "anthropic" | "openai" | "gemini", model: string, extra = {}) {
  server.enqueue({ text: "I see it" });
  expectDone(await collect(streamFor(server, kind, extra)(makeRequest(kind, model, history()))));
  return server.requests.at(-1)?.body as Record<string, unknown>;
}

describe("images in tool results", () => {
  test("anthropic: an image block inside the tool_result, after its text", async () => {
    const body = (await send("anthropic", "claude-haiku-4-5")) as {
      messages: { role: string; content: Record<string, unknown>[] }[];
    };
    const results = body.messages[2]?.content ?? [];
    expect(results[0]).toMatchObject({
      type: "tool_result",
      tool_use_id: "call_1",
      content: [
        { type: "text", text: "the screen\n[image 1: image/png, attached]" },
        { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
      ],
    });
    expect(results[1]).toMatchObject({ type: "tool_result", tool_use_id: "call_2", content: "a's text" });
  });

  test("openai responses: function_call_output with input_text and an input_image data URL", async () => {
    const body = (await send("openai", "gpt-5.5", { compatible: false })) as {
      input: Record<string, unknown>[];
    };
    const output = body.input.find((i) => i.type === "function_call_output" && i.call_id === "call_1");
    expect(output?.output).toEqual([
      { type: "input_text", text: "the screen\n[image 1: image/png, attached]" },
      { type: "input_image", image_url: `data:image/png;base64,${PNG}` },
    ]);
  });

  test("chat completions: tool messages stay text; one user message with the image follows them", async () => {
    const body = (await send("openai", "qwen3-vl")) as { messages: { role: string; content: unknown }[] };
    expect(body.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "tool", "user"]);
    expect(body.messages[3]?.content).toBe("the screen\n[image 1: image/png, attached]");
    expect(body.messages[5]?.content).toEqual([
      { type: "text", text: "The image returned by tool call call_1 (mcp__ui__screenshot):" },
      { type: "image_url", image_url: { url: `data:image/png;base64,${PNG}` } },
    ]);
  });

  test("the fake refuses what Chat Completions refuses: an image inside a tool message", async () => {
    server.enqueue({ text: "unused" });
    const bad = {
      model: "qwen3-vl",
      stream: true,
      messages: [
        { role: "user", content: "look" },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "c", type: "function", function: { name: "shot", arguments: "{}" } }],
        },
        {
          role: "tool",
          tool_call_id: "c",
          content: [{ type: "image_url", image_url: { url: "data:image/png;base64,AA" } }],
        },
      ],
    };
    const response = await fetch(`${server.openaiBaseUrl}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer test" },
      body: JSON.stringify(bad),
    });
    expect(response.status).toBe(400);
    const error = ((await response.json()) as { error: { message: string } }).error.message;
    expect(error).toBe(
      "Invalid 'messages[2]'. Image URLs are only allowed for messages with role 'user', but this message with role 'tool' contains an image URL.",
    );
    server.clear();
  });

  test("gemini: inline image data in the functionResponse's own parts", async () => {
    const body = (await send("gemini", "gemini-3-flash")) as {
      contents: { role: string; parts: Record<string, unknown>[] }[];
    };
    const responses = body.contents[2]?.parts ?? [];
    expect(responses[0]).toEqual({
      functionResponse: {
        id: "call_1",
        name: "mcp__ui__screenshot",
        response: { output: "the screen\n[image 1: image/png, attached]" },
        parts: [{ inlineData: { mimeType: "image/png", data: PNG } }],
      },
    });
    expect(responses[1]).toMatchObject({
      functionResponse: { id: "call_2", response: { output: "a's text" } },
    });
  });

  test("gemini 2.x: no image in the functionResponse (it refuses them); a note says it was left out", async () => {
    const body = (await send("gemini", "gemini-2.5-flash")) as {
      contents: { role: string; parts: Record<string, unknown>[] }[];
    };
    const responses = body.contents[2]?.parts ?? [];
    expect(responses).toHaveLength(2);
    expect(responses[0]).toEqual({
      functionResponse: {
        id: "call_1",
        name: "mcp__ui__screenshot",
        response: {
          output:
            "the screen\n[image 1: image/png, attached]\n[1 image(s) left out: this model takes no images in a function response]",
        },
      },
    });
  });

  test("the fake refuses what Gemini 2.x refuses: parts inside a functionResponse", async () => {
    const contents = [
      { role: "user", parts: [{ text: "look" }] },
      { role: "model", parts: [{ functionCall: { name: "shot", args: {} } }] },
      {
        role: "user",
        parts: [
          {
            functionResponse: {
              name: "shot",
              response: { output: "x" },
              parts: [{ inlineData: { mimeType: "image/png", data: PNG } }],
            },
          },
        ],
      },
    ];
    const url = `${server.geminiBaseUrl}/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse`;
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", "x-goog-api-key": "test" },
      body: JSON.stringify({ contents }),
    });
    expect(response.status).toBe(400);
    const error = ((await response.json()) as { error: { message: string } }).error.message;
    expect(error).toStartWith(
      "Unable to submit request because `function_response.parts` is not supported for this model.",
    );
  });
});
