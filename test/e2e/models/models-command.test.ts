/**
 * Issue 20, the CLI side of the catalog, through bin/agent with no network (the fake server on 127.0.0.1):
 * `agent models` shows each tier's choice and why, the catalog's source, and hides retired models unless
 * `--all`; `agent models --refresh` caches a served api.json that a later run uses, and fails with exit 4;
 * `agent helper -m` lists the aliases in its help.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { unlistedCatalogModels } from "../../../src/llm/catalog/check.ts";
import { catalogEntries } from "../../../src/llm/catalog.ts";
import { aliasNames } from "../../../src/llm/resolve.ts";
import { startEndlessServer } from "../../support/endless-server.ts";
import type { FakeLlmServer } from "../../support/fake-llm-server.ts";
import { type E2eSandbox, freshServerAndSandbox, runAgentIn } from "../support.ts";

let server: FakeLlmServer;
let sandbox: E2eSandbox;
freshServerAndSandbox((s, b) => {
  server = s;
  sandbox = b;
});

const keys = () =>
  sandbox.env({
    ANTHROPIC_API_KEY: "sk-ant-test-models-00000001",
    OPENAI_API_KEY: "sk-test-models-00000001",
    GEMINI_API_KEY: "test-gemini-models-00000001",
    XDG_CACHE_HOME: join(sandbox.dir, "cache"),
  });

const lineWith = (text: string, needle: string) => text.split("\n").find((l) => l.includes(needle));

describe("agent models", () => {
  test("shows each tier's candidates with why, the catalog's source, and no retired models", async () => {
    const result = await runAgentIn(sandbox, ["models"], keys());
    expect(result.code).toBe(0);
    const out = result.stdout;
    expect(lineWith(out, "gpt-6.2-astra:")).toContain("newest generally available astra model");
    expect(lineWith(out, "claude-fable-5-2:")).toContain("newest generally available fable model");
    // Gemini 4 Carbon, Google's strongest reasoning model, leads the gemini-pro line (overrides.ts).
    expect(lineWith(out, "gemini-4-carbon:")).toContain("newest generally available gemini-pro model");
    expect(lineWith(out, "gemini-4-neon:")).toContain("newest generally available neon model");
    expect(out).toContain("best: the newest generally available flagship");
    expect(out).toMatch(/Catalog: models\.dev [0-9a-f]{7,}, \d{4}-\d{2}-\d{2}/);
    // Shut down 2026-10-23: only with --all.
    expect(out).not.toContain("gpt-4o-2024-05-13");
    const all = await runAgentIn(sandbox, ["models", "--all"], keys());
    expect(all.stdout).toContain("gpt-4o-2024-05-13");
    // The header dates both halves of the catalog: the models.dev data and our cited overrides.
    expect(out).toContain("our cited overrides (tiers, prices, retirements) checked 2026-11-29");
    // Shut-down and non-chat models (embeddings, speech, image generation) only with --all.
    const known = out.slice(out.indexOf("Known chat models"));
    for (const hidden of [
      "text-embedding-3-large",
      "gemini-embedding-001",
      "gemini-2.5-flash-preview-tts",
      "gemini-2.5-flash-image",
      "o1-pro",
      "gpt-4.1-nano",
      "claude-opus-4-0",
      "gpt-5.1-codex,",
    ])
      expect(`${hidden} listed: ${known.includes(hidden)}`).toBe(`${hidden} listed: false`);
    expect(known).toContain("gemini-4-carbon");
    expect(all.stdout).toContain("text-embedding-3-large");
    expect(all.stdout).toContain("o1-pro");
    expect(out).not.toContain("pinned by config");
  });

  test("marks a tier that config pins", async () => {
    mkdirSync(join(sandbox.configDir, "agent"), { recursive: true });
    writeFileSync(join(sandbox.configDir, "agent", "config.yaml"), "models:\n  good: [openai:gpt-6-sol]\n");
    const result = await runAgentIn(sandbox, ["models"], keys());
    expect(result.code).toBe(0);
    expect(lineWith(result.stdout, "good: the newest")).toContain("[pinned by config: models.good");
    expect(lineWith(result.stdout, "best: the newest")).not.toContain("pinned");
  });
});

describe("agent models --refresh", () => {
  test("caches the served catalog; a later helper run uses its window and prices", async () => {
    server.serveCatalog(readFileSync(join(import.meta.dir, "../../fixtures/models-dev/api.json"), "utf8"));
    const env = {
      ...keys(),
      OPENAI_BASE_URL: server.openaiBaseUrl,
      AGENT_MODELS_URL: `${server.url}/api.json`,
    };
    const cache = join(sandbox.dir, "cache", "agent", "models.json");
    const refreshed = await runAgentIn(sandbox, ["models", "--refresh"], env);
    expect(refreshed.stderr).toBe("");
    expect(refreshed.code).toBe(0);
    expect(refreshed.stdout).toMatch(
      new RegExp(`^refreshed \\d+ models from ${server.url}/api.json → ${cache}\\n$`),
    );
    expect(readFileSync(cache, "utf8")).toContain("gpt-7-nova");

    server.enqueue({
      protocol: "openai-responses",
      text: "hello",
      usage: { input: 1_000, output: 100, cacheRead: 0, cacheWrite: 0 },
    });
    const result = await runAgentIn(sandbox, ["helper", "-m", "gpt-7-nova", "-o", "json", "say hi"], env);
    expect(result.code).toBe(0);
    // The fixture's $3 input / $15 output per million tokens (unknown ids cost $10/$50: 0.015).
    const output = JSON.parse(result.stdout) as { usage: { cost_usd: number } };
    expect(output.usage.cost_usd).toBe(0.0045);
    expect(server.requests.at(-1)?.model).toBe("gpt-7-nova");
    const listed = await runAgentIn(sandbox, ["models"], env);
    expect(listed.stdout).toContain(`Catalog: ${server.url}/api.json`);
  });

  test("a refresh pricing a cited model at $0 keeps the cited price and says so; a run bills the cited price", async () => {
    const fixture = JSON.parse(
      readFileSync(join(import.meta.dir, "../../fixtures/models-dev/api.json"), "utf8"),
    ) as { anthropic: { models: Record<string, { cost: Record<string, number> }> } };
    const sonnet = fixture.anthropic.models["claude-sonnet-5-5"];
    if (sonnet) sonnet.cost = { input: 0, output: 0 };
    server.serveCatalog(fixture);
    const env = {
      ...keys(),
      ANTHROPIC_BASE_URL: server.anthropicBaseUrl,
      AGENT_MODELS_URL: `${server.url}/api.json`,
    };
    const refreshed = await runAgentIn(sandbox, ["models", "--refresh"], env);
    expect(refreshed.code).toBe(0);
    expect(refreshed.stderr).toBe(
      'agent: note: cited price kept (docs/models.md "Prices and budgets"): claude-sonnet-5-5: refreshed $0/$0, kept $2/$10\n',
    );
    server.enqueue({ text: "hello", usage: { input: 1_000, output: 100, cacheRead: 0, cacheWrite: 0 } });
    const result = await runAgentIn(
      sandbox,
      ["helper", "-m", "claude-sonnet-5-5", "-o", "json", "say hi"],
      env,
    );
    expect(result.code).toBe(0);
    // Sonnet 5.5's cited $2/$10, not the refreshed $0.
    expect((JSON.parse(result.stdout) as { usage: { cost_usd: number } }).usage.cost_usd).toBeCloseTo(
      0.003,
      9,
    );
  });

  test("a failed download prints the note on stderr and exits 4", async () => {
    server.serveCatalog({ error: "down" }, 503);
    const env = { ...keys(), AGENT_MODELS_URL: `${server.url}/api.json` };
    const result = await runAgentIn(sandbox, ["models", "--refresh"], env);
    expect(result.code).toBe(4);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("model catalog not refreshed (HTTP 503");
  });
});

describe("agent models --refresh of a body that never stops", () => {
  test("a 1 GiB catalog body is streamed and cut at the 64 MiB cap: exit 4 naming the cap, the rest never read", async () => {
    // Before, the whole body was read into memory and checked after (1 GiB body: 1.3 GiB RSS).
    const cap = 64 * 1024 * 1024;
    const inFlight = 16 * 1024 * 1024; // what the sockets may hold beyond what the reader took
    const endless = await startEndlessServer({ totalBytes: 1024 * 1024 * 1024, prefix: '{"x":"' });
    try {
      const url = `${endless.url}/api.json`;
      const result = await runAgentIn(sandbox, ["models", "--refresh"], { ...keys(), AGENT_MODELS_URL: url });
      expect(result.stdout).toBe("");
      expect(result.stderr).toContain(
        `model catalog not refreshed (the catalog at ${url} is larger than ${cap} bytes; stopped reading at`,
      );
      expect(result.code).toBe(4);
      await endless.idle();
      expect(endless.served()).toBeGreaterThan(cap);
      expect(endless.served()).toBeLessThan(cap + inFlight);
    } finally {
      await endless.close();
    }
  });
});

describe("agent models --check", () => {
  test("flags a catalog model the provider no longer lists", async () => {
    // Every live Anthropic model of the catalog (all of them are unlisted against an empty list) but one.
    const live = unlistedCatalogModels(catalogEntries(), "anthropic", [], new Date()).map((m) => m.id);
    expect(live).toContain("claude-opus-5-5");
    server.serveModels(
      "anthropic",
      live.filter((id) => id !== "claude-opus-5-5"),
    );
    const env = sandbox.env({
      ANTHROPIC_API_KEY: "sk-ant-test-models-00000001",
      ANTHROPIC_BASE_URL: server.anthropicBaseUrl,
    });
    const result = await runAgentIn(sandbox, ["models", "--check"], env);
    expect(result.stdout).toContain("UNLISTED    claude-opus-5-5: in the catalog");
    expect(result.stdout).toContain("1 catalog model(s) not listed by their provider");
    expect(result.stdout.match(/UNLISTED/g)).toHaveLength(1);
    const json = await runAgentIn(sandbox, ["models", "--check", "--json"], env);
    const check = JSON.parse(json.stdout) as {
      providers: { provider: string; unlisted: { id: string }[] }[];
    };
    const anthropic = check.providers.find((p) => p.provider === "anthropic");
    expect(anthropic?.unlisted.map((u) => u.id)).toEqual(["claude-opus-5-5"]);
  });
});

describe("--help of helper, run and chat", () => {
  test.each(["helper", "run", "chat"])("agent %s --help: -m lists the aliases", async (command) => {
    const result = await runAgentIn(sandbox, [command, "--help"], keys());
    expect(result.code).toBe(0);
    const help = result.stdout.replace(/\s+/g, " ");
    expect(aliasNames()).toContain("sonnet");
    expect(help).toContain(`alias (${aliasNames().join(", ")})`);
  });
});
