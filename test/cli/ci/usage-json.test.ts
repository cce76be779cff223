/**
 * `agent run --output json` (run in the test process, ../run/in-process.ts) reports what the provider bills for recorded real streams
 * (test/fixtures/conformance/recorded-exchanges): Gemini thoughts counted as output, cached input counted once
 * on an OpenAI-compatible server, and the cost rounded to 6 decimals.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type E2eSandbox, freshServerAndSandbox, TEST_KEY } from "../../e2e/support.ts";
import { readChunkLines } from "../../llm/recorded-support.ts";
import type { FakeLlmServer } from "../../support/fake-llm-server.ts";
import { runInSandbox } from "../run/in-process.ts";

let server: FakeLlmServer;
let sandbox: E2eSandbox;
freshServerAndSandbox((s, b) => {
  server = s;
  sandbox = b;
});

interface UsageJson {
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  reasoning_tokens: number;
  cost_usd: number;
}

describe("usage in --output json equals the billed figures of recorded streams", () => {
  test("gemini: 23 candidate + 302 thought tokens are 325 billed output; cost at gemini-3.1-pro-preview rates", async () => {
    server.enqueue({
      protocol: "gemini",
      rawEvents: readChunkLines("gemini/gemini-3-pro-reasoning.chunks.txt"),
    });
    const env = sandbox.env({ GEMINI_API_KEY: TEST_KEY, GOOGLE_GEMINI_BASE_URL: server.geminiBaseUrl });
    const result = await runInSandbox(
      sandbox,
      ["run", "How many r in strawberry?", "--model", "gemini:gemini-3.1-pro-preview", "--output", "json"],
      env,
    );
    expect(result.code).toBe(0);
    const usage = (JSON.parse(result.stdout) as { usage: UsageJson }).usage;
    expect(usage).toMatchObject({
      input_tokens: 9,
      output_tokens: 325,
      cache_read_tokens: 0,
      reasoning_tokens: 302,
    });
    // $2 / MTok input, $12 / MTok output (thinking included): (9 * 2 + 325 * 12) / 1e6.
    expect(usage.cost_usd).toBe(0.003918);
  });

  test("openai-compatible (DeepSeek): 339 prompt tokens are 19 input + 320 cache reads, never 339 + 320", async () => {
    mkdirSync(join(sandbox.configDir, "agent"), { recursive: true });
    writeFileSync(
      join(sandbox.configDir, "agent", "config.yaml"),
      `providers:\n  deepseek:\n    kind: openai-compatible\n    base_url: ${server.openaiBaseUrl}\n    send_reasoning_content: true\n`,
    );
    server.enqueue(
      {
        protocol: "openai",
        rawEvents: readChunkLines(
          "openai-compatible/deepseek-reasoner-reasoning-content-tool-call.chunks.txt",
        ),
      },
      { protocol: "openai", text: "It is sunny.", usage: { input: 5, cacheRead: 400, output: 4 } },
    );
    const result = await runInSandbox(
      sandbox,
      ["run", "Weather in San Francisco?", "--model", "deepseek:deepseek-reasoner", "--output", "json"],
      sandbox.env(),
    );
    expect(result.code).toBe(0);
    const usage = (JSON.parse(result.stdout) as { usage: UsageJson }).usage;
    expect(usage).toMatchObject({
      input_tokens: 19 + 5,
      cache_read_tokens: 320 + 400,
      output_tokens: 83 + 4,
    });
    // The second request carried the first turn's reasoning back (send_reasoning_content).
    const second = server.requests.at(-1)?.body as { messages: Record<string, unknown>[] };
    const assistant = second.messages.find((m) => m.role === "assistant");
    expect(String(assistant?.reasoning_content)).toStartWith(
      "The user is asking for the weather in San Francisco",
    );
  });
});
