/**
 * Issue 20, done-when: after a refresh from a local api.json fixture that adds an invented model, `agent
 * helper -m <that id>` runs with the fixture's limits and reports cost at the fixture's prices. The refresh
 * is refreshCatalog itself (what `agent models --refresh` will call), writing the sandbox's cache.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { refreshCatalog } from "../../../src/llm/catalog/refresh.ts";
import type { FakeLlmServer } from "../../support/fake-llm-server.ts";
import { type E2eSandbox, freshServerAndSandbox, runAgentIn } from "../support.ts";

let server: FakeLlmServer;
let sandbox: E2eSandbox;
freshServerAndSandbox((s, b) => {
  server = s;
  sandbox = b;
});

describe("a refreshed catalog reaches a run", () => {
  test("agent helper -m gpt-7-nova reports cost at the fixture's prices", async () => {
    server.serveCatalog(readFileSync(join(import.meta.dir, "../../fixtures/models-dev/api.json"), "utf8"));
    const cache = join(sandbox.dir, "cache");
    const refreshed = await refreshCatalog(`${server.url}/api.json`, { env: { XDG_CACHE_HOME: cache } });
    expect(refreshed.ok).toBe(true);
    server.enqueue({
      protocol: "openai-responses",
      text: "hello",
      usage: { input: 1_000, output: 100, cacheRead: 0, cacheWrite: 0 },
    });
    const env = sandbox.env({
      OPENAI_API_KEY: "sk-test-catalog-0000000001",
      OPENAI_BASE_URL: server.openaiBaseUrl,
      XDG_CACHE_HOME: cache,
    });
    const result = await runAgentIn(
      sandbox,
      ["helper", "-m", "openai:gpt-7-nova", "-o", "json", "say hi"],
      env,
    );
    expect(result.code).toBe(0);
    const output = JSON.parse(result.stdout) as { usage: { cost_usd: number } };
    // The fixture's $3 input / $15 output per million tokens: (1,000 * 3 + 100 * 15) / 1e6.
    expect(output.usage.cost_usd).toBe(0.0045);
    // (Without the refresh the id is unknown and priced at the conservative $10/$50: 0.015.)
    expect(server.requests.at(-1)?.model).toBe("gpt-7-nova");
  });
});
