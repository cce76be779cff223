/**
 * Issue 20: `models.refresh: auto` in config.yaml. With a cache over a day old, a run starts the catalog
 * refresh in the background and ends normally; the refresh is given up to 2 s at the end of the run, so
 * against the local fake it has landed by the time the process exits. Without the setting nothing is
 * fetched. A failed refresh is one warning line and does not change the exit code.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeLlmServer } from "../../support/fake-llm-server.ts";
import { type E2eSandbox, freshServerAndSandbox, runAgentIn } from "../support.ts";

let server: FakeLlmServer;
let sandbox: E2eSandbox;
freshServerAndSandbox((s, b) => {
  server = s;
  sandbox = b;
});

const STALE = `${JSON.stringify({ source: "stale", date: "2026-01-01", models: [] })}\n`;

function staleCache(): string {
  const file = join(sandbox.dir, "cache", "agent", "models.json");
  mkdirSync(join(sandbox.dir, "cache", "agent"), { recursive: true });
  writeFileSync(file, STALE);
  const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
  utimesSync(file, twoDaysAgo, twoDaysAgo);
  return file;
}

function config(text: string): void {
  mkdirSync(join(sandbox.configDir, "agent"), { recursive: true });
  writeFileSync(join(sandbox.configDir, "agent", "config.yaml"), text);
}

const env = () =>
  sandbox.env({
    OPENAI_API_KEY: "sk-test-auto-refresh-00000001",
    OPENAI_BASE_URL: server.openaiBaseUrl,
    XDG_CACHE_HOME: join(sandbox.dir, "cache"),
    AGENT_MODELS_URL: `${server.url}/api.json`,
  });

async function helper() {
  server.enqueue({ protocol: "openai-responses", text: "hi" });
  return runAgentIn(sandbox, ["helper", "-m", "openai:gpt-6-luna", "say hi"], env());
}

describe("models.refresh: auto", () => {
  test("a stale cache is refreshed in the background of a run that ends normally", async () => {
    server.serveCatalog(readFileSync(join(import.meta.dir, "../../fixtures/models-dev/api.json"), "utf8"));
    const cache = staleCache();
    config("models:\n  refresh: auto\n");
    const result = await helper();
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("hi\n");
    const data = JSON.parse(readFileSync(cache, "utf8")) as { source: string; models: { id: string }[] };
    expect(data.source).toBe(`${server.url}/api.json`);
    expect(data.models.map((m) => m.id)).toContain("gpt-7-nova");
  });

  test("agent run refreshes a stale cache in the background too", async () => {
    server.serveCatalog(readFileSync(join(import.meta.dir, "../../fixtures/models-dev/api.json"), "utf8"));
    const cache = staleCache();
    config("models:\n  refresh: auto\n");
    server.enqueue({ protocol: "openai-responses", text: "hi" });
    const result = await runAgentIn(sandbox, ["run", "-m", "openai:gpt-6-luna", "say hi"], env());
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("hi\n");
    const data = JSON.parse(readFileSync(cache, "utf8")) as { source: string; models: { id: string }[] };
    expect(data.models.map((m) => m.id)).toContain("gpt-7-nova");
  });

  test("without the setting nothing is fetched", async () => {
    server.serveCatalog(readFileSync(join(import.meta.dir, "../../fixtures/models-dev/api.json"), "utf8"));
    const cache = staleCache();
    const result = await helper();
    expect(result.code).toBe(0);
    expect(readFileSync(cache, "utf8")).toBe(STALE);
  });

  test("a failed refresh is one warning line; the run still succeeds", async () => {
    server.serveCatalog({ error: "down" }, 503);
    const cache = staleCache();
    config("models:\n  refresh: auto\n");
    const result = await helper();
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("hi\n");
    const warnings = result.stderr.split("\n").filter((l) => l.includes("model catalog not refreshed"));
    expect(warnings).toEqual([
      expect.stringMatching(/^agent: warning: model catalog not refreshed \(HTTP 503/),
    ]);
    expect(readFileSync(cache, "utf8")).toBe(STALE);
  });

  test("a value other than auto or off is a config error (exit 3)", async () => {
    config("models:\n  refresh: always\n");
    const result = await runAgentIn(sandbox, ["helper", "-m", "openai:gpt-6-luna", "say hi"], env());
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("expected refresh: auto or off");
  });
});
