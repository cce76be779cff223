/** `agent models --check` against the fake server's model-list endpoints, through the real SDKs. */
import { beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_TIER_MODELS, TIERS } from "../../../../src/llm/resolve.ts";
import { runAgent, withFakeServerAndSandbox } from "../../../cli/run-agent.ts";

const fx = withFakeServerAndSandbox();

const configFile = () => join(fx.sandbox.configDir, "agent", "config.yaml");

beforeEach(() => {
  rmSync(configFile(), { force: true });
});

/** Every default id of a provider, over all tiers. */
function defaults(provider: "anthropic" | "openai" | "gemini"): string[] {
  return [...new Set(TIERS.flatMap((tier) => DEFAULT_TIER_MODELS[tier][provider]))];
}

const ANTHROPIC_KEY = "sk-ant-test-check-000001";

function env(extra: Record<string, string> = {}): Record<string, string> {
  return fx.sandbox.env({
    ANTHROPIC_API_KEY: ANTHROPIC_KEY,
    ANTHROPIC_BASE_URL: fx.server.anthropicBaseUrl,
    GEMINI_API_KEY: "gemini-test-check-000001",
    GOOGLE_GEMINI_BASE_URL: fx.server.geminiBaseUrl,
    ...extra,
  });
}

describe("agent models --check", () => {
  test("without any key it says so and exits 0", async () => {
    const result = await runAgent(["models", "--check"], { env: fx.sandbox.env() });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("No provider key is set");
    expect(result.stdout).toContain("ANTHROPIC_API_KEY");
  });

  test("every default served: all ok, exit 0, providers without a key skipped", async () => {
    fx.server.serveModels("anthropic", [...defaults("anthropic"), "claude-other-1"]);
    fx.server.serveModels("gemini", defaults("gemini"));
    const result = await runAgent(["models", "--check"], { env: env() });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`anthropic: serves ${defaults("anthropic").length + 1} models`);
    expect(result.stdout).toContain("openai: skipped (OPENAI_API_KEY not set)");
    expect(result.stdout).not.toContain("NOT SERVED");
    expect(result.stdout).not.toContain(ANTHROPIC_KEY);
  });

  test("a default the provider no longer serves is flagged (exit 1); a deprecated one is marked", async () => {
    const [gone, old, ...rest] = defaults("anthropic");
    fx.server.serveModels("anthropic", [
      { id: old as string, lifecycle: "deprecated", retiresAt: "2027-02-01T00:00:00Z" },
      ...rest,
    ]);
    fx.server.serveModels("gemini", defaults("gemini"));
    const result = await runAgent(["models", "--check", "--json"], { env: env() });
    expect(result.code).toBe(1);
    const check = JSON.parse(result.stdout) as {
      providers: { provider: string; models: { id: string; status: string; roles: string[] }[] }[];
      exitCode: number;
    };
    const anthropic = check.providers.find((p) => p.provider === "anthropic");
    expect(anthropic?.models.find((m) => m.id === gone)).toMatchObject({ status: "not_served" });
    expect(anthropic?.models.find((m) => m.id === old)).toMatchObject({ status: "deprecated" });
    expect(check.exitCode).toBe(1);
  });

  test("a configured model is checked too, in text output", async () => {
    mkdirSync(join(fx.sandbox.configDir, "agent"), { recursive: true });
    writeFileSync(configFile(), "models:\n  fast: [gemini:gemini-retired-9]\n");
    fx.server.serveModels("anthropic", defaults("anthropic"));
    fx.server.serveModels("gemini", defaults("gemini"));
    const result = await runAgent(["models", "--check"], { env: env() });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/NOT SERVED {2}gemini-retired-9 +fast config/);
    expect(result.stdout).toContain("1 model(s) not served");
  });

  test("a list that cannot be read names the provider and exits 4", async () => {
    fx.server.serveModels("anthropic", { status: 401, message: "invalid x-api-key" });
    fx.server.serveModels("gemini", defaults("gemini"));
    const result = await runAgent(["models", "--check"], { env: env() });
    expect(result.code).toBe(4);
    expect(result.stdout).toContain(
      "anthropic: cannot list models: anthropic (model list): 401 authentication failed",
    );
    expect(result.stdout).not.toContain(ANTHROPIC_KEY);
  });

  test("OpenAI's list is read through its SDK", async () => {
    fx.server.serveModels("openai", defaults("openai").slice(1));
    const result = await runAgent(["models", "--check"], {
      env: fx.sandbox.env({
        OPENAI_API_KEY: "sk-test-check-0000001",
        OPENAI_BASE_URL: fx.server.openaiBaseUrl,
      }),
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`NOT SERVED  ${defaults("openai")[0]}`);
  });
});
