import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_TIER_MODELS } from "../../../../src/llm/resolve.ts";
import { makeSandbox, runAgent, type Sandbox } from "../../../cli/run-agent.ts";
import { closedPort } from "../../../support/closed-port.ts";

let sandbox: Sandbox;
beforeAll(() => {
  sandbox = makeSandbox();
});
afterAll(() => sandbox.cleanup());

const SECRET = "sk-ant-very-secret-value-123456";

describe("agent models", () => {
  test("shows each tier's model and why, naming key variables but never their values", async () => {
    const result = await runAgent(["models"], {
      env: sandbox.env({ ANTHROPIC_API_KEY: SECRET, GOOGLE_API_KEY: "google-secret-value-0001" }),
    });
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain(SECRET);
    expect(result.stdout).not.toContain("google-secret-value-0001");
    expect(result.stdout).toContain("ANTHROPIC_API_KEY found");
    expect(result.stdout).toContain("GOOGLE_API_KEY found");
    expect(result.stdout).toContain("OPENAI_API_KEY not set");
    expect(result.stdout).toContain(
      `fast → ${DEFAULT_TIER_MODELS.fast.anthropic[0]} (ANTHROPIC_API_KEY set)`,
    );
    expect(result.stdout).toContain(`best → ${DEFAULT_TIER_MODELS.best.anthropic[0]}`);
    expect(result.stdout).toContain(`gemini:${DEFAULT_TIER_MODELS.fast.gemini[0]}`); // in the fallback chain
    expect(result.stdout).toContain("Config overrides: none");
    // `auto` is decided from the task (run, helper and specs alike), never a silent alias of fast.
    expect(result.stdout).toContain("Tiers (smart = best; auto picks one of them from the task):");
  });

  test("known models are listed by provider, then id, numbers by value (as a person looks them up)", async () => {
    const result = await runAgent(["models", "--json"], { env: sandbox.env({ ANTHROPIC_API_KEY: SECRET }) });
    expect(result.code).toBe(0);
    const known = (JSON.parse(result.stdout) as { known: Record<string, string[]> }).known;
    const byName = new Intl.Collator("en", { numeric: true }).compare;
    expect(Object.keys(known)).toEqual(Object.keys(known).sort(byName));
    for (const ids of Object.values(known)) expect(ids).toEqual([...ids].sort(byName));
    // Catalog order put the GPT-6 line before GPT-5.6 and Fable 5.2 before 5.1.
    const openai = known.openai ?? [];
    expect(openai.indexOf("gpt-5.6-luna")).toBeLessThan(openai.indexOf("gpt-6-astra"));
    const anthropic = known.anthropic ?? [];
    expect(anthropic.indexOf("claude-fable-5-1")).toBeLessThan(anthropic.indexOf("claude-fable-5-2"));
    // The text listing shows the same order.
    const text = await runAgent(["models"], { env: sandbox.env({ ANTHROPIC_API_KEY: SECRET }) });
    expect(text.stdout).toContain(`  openai     ${openai.join(", ")}`);
  });

  test("--json report, with config overrides and openai-compatible providers", async () => {
    mkdirSync(join(sandbox.configDir, "agent"), { recursive: true });
    writeFileSync(
      join(sandbox.configDir, "agent", "config.yaml"),
      "models:\n  fast: ollama:llama3.2\nproviders:\n  ollama:\n    kind: openai-compatible\n    base_url: http://127.0.0.1:11434/v1\n",
    );
    const result = await runAgent(["models", "--json"], { env: sandbox.env() });
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.config.found).toBe(true);
    expect(report.overrides).toEqual({ fast: ["ollama:llama3.2"] });
    expect(report.providers.map((p: { name: string }) => p.name)).toEqual([
      "anthropic",
      "openai",
      "gemini",
      "ollama",
    ]);
    const fast = report.tiers.find((t: { tier: string }) => t.tier === "fast");
    expect(fast).toMatchObject({ model: "llama3.2", provider: "ollama", source: "config" });
    // No key anywhere: the other tiers say what to set instead of failing the command.
    const good = report.tiers.find((t: { tier: string }) => t.tier === "good");
    expect(good.model).toBeNull();
    expect(good.reason).toContain("ANTHROPIC_API_KEY");
  });
});

describe("agent models: a local Ollama is ready only when it answers (issue 21, item 8)", () => {
  // The built-in ollama endpoint (no config entry replacing it).
  beforeEach(() => rmSync(join(sandbox.configDir, "agent"), { recursive: true, force: true }));

  test("nothing listens at OLLAMA_HOST: ollama is unavailable, not answering", async () => {
    const port = await closedPort();
    const env = sandbox.env({ OLLAMA_HOST: `127.0.0.1:${port}` });
    const text = await runAgent(["models"], { env });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(
      / {2}ollama {5}unavailable no key needed; not answering; base URL http:\/\/127\.0\.0\.1:\d+\/v1/,
    );
    const json = await runAgent(["models", "--json"], { env });
    const ollama = JSON.parse(json.stdout).providers.find((p: { name: string }) => p.name === "ollama");
    expect(ollama).toMatchObject({ ready: false, answers: false });
  });

  test("a server answering GET /v1/models at OLLAMA_HOST: ollama is ready", async () => {
    const paths: string[] = [];
    const server = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch(request) {
        paths.push(new URL(request.url).pathname);
        return Response.json({ object: "list", data: [{ id: "llama3.2", object: "model" }] });
      },
    });
    try {
      const env = sandbox.env({ OLLAMA_HOST: `127.0.0.1:${server.port}` });
      const text = await runAgent(["models"], { env });
      expect(text.code).toBe(0);
      expect(text.stdout).toMatch(/ {2}ollama {5}ready {7}no key needed; answering/);
      expect(paths).toEqual(["/v1/models"]);
    } finally {
      await server.stop(true);
    }
  });
});

describe("the program", () => {
  test("--help exits 0 and lists the commands", async () => {
    const result = await runAgent(["--help"], { env: sandbox.env() });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("helper");
    expect(result.stdout).toContain("models");
  });

  test("--version exits 0", async () => {
    const result = await runAgent(["--version"], { env: sandbox.env() });
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  test("an unknown command and no command at all are usage errors (exit 2)", async () => {
    expect((await runAgent(["frobnicate"], { env: sandbox.env() })).code).toBe(2);
    expect((await runAgent([], { env: sandbox.env() })).code).toBe(2);
  });

  test("`agent` alone without a terminal says to use agent run, on stderr only, and exits 2", async () => {
    const result = await runAgent([], { env: sandbox.env() });
    expect(result).toEqual({
      code: 2,
      stdout: "",
      stderr:
        'agent needs a terminal for a chat; without one, use agent run "goal" (agent --help for commands)\n',
    });
  });
});
