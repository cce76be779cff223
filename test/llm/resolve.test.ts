import { describe, expect, test } from "bun:test";
import { ExitCode, exitCodeForAppError } from "../../src/kernel/index.ts";
import { costOf, modelInfo } from "../../src/llm/catalog.ts";
import { listEndpoints, type ModelsConfig } from "../../src/llm/endpoints.ts";
import { DEFAULT_TIER_MODELS, detectProvider, resolveModel } from "../../src/llm/resolve.ts";
import { thrownAppError } from "../support/thrown-app-error.ts";

const ANTHROPIC = { ANTHROPIC_API_KEY: "sk-ant-test-key-0001" };
const OPENAI = { OPENAI_API_KEY: "sk-test-openai-key-0001" };
const GEMINI = { GEMINI_API_KEY: "gemini-test-key-0001" };

describe("tiers per provider", () => {
  for (const [env, provider] of [
    [ANTHROPIC, "anthropic"],
    [OPENAI, "openai"],
    [GEMINI, "gemini"],
  ] as const) {
    for (const tier of ["fast", "good", "best"] as const) {
      test(`${tier} with only ${provider}'s key`, () => {
        const resolved = resolveModel(tier, { env });
        const expected = DEFAULT_TIER_MODELS[tier][provider];
        expect(resolved.ref.provider).toBe(provider);
        expect(resolved.ref.providerName).toBe(provider);
        expect(resolved.ref.id).toBe(expected[0]!);
        // The provider's other candidates form the fallback chain; no other provider has a key.
        expect(resolved.ref.fallbacks?.map((f) => f.id)).toEqual(expected.slice(1));
        expect(resolved.tier).toBe(tier);
        expect(resolved.reason).toBe(`${tier} → ${expected[0]} (${Object.keys(env)[0]} set)`);
      });
    }
  }

  test("fast models are the small ones: a haiku, a luna (mini-class GPT), a flash", () => {
    expect(resolveModel("fast", { env: ANTHROPIC }).ref.id).toContain("haiku");
    expect(resolveModel("fast", { env: OPENAI }).ref.id).toContain("luna");
    expect(resolveModel("fast", { env: GEMINI }).ref.id).toContain("flash");
  });

  test("every default tier model is in the catalog", () => {
    for (const tier of Object.values(DEFAULT_TIER_MODELS)) {
      for (const [provider, ids] of Object.entries(tier)) {
        for (const id of ids) expect(modelInfo(id).known && modelInfo(id).provider === provider).toBe(true);
      }
    }
  });

  test("GOOGLE_API_KEY works for Gemini too", () => {
    const resolved = resolveModel("fast", { env: { GOOGLE_API_KEY: "google-test-key-0001" } });
    expect(resolved.ref.provider).toBe("gemini");
    expect(resolved.reason).toContain("GOOGLE_API_KEY set");
  });

  test("smart is an alias of best", () => {
    const smart = resolveModel("smart", { env: ANTHROPIC });
    expect(smart.ref).toEqual(resolveModel("best", { env: ANTHROPIC }).ref);
    expect(smart.tier).toBe("best");
    expect(smart.reason).toStartWith("smart (= best) → ");
  });
});

describe("provider order", () => {
  test("Anthropic, then OpenAI, then Gemini; fallbacks cross providers in that order", () => {
    const resolved = resolveModel("fast", { env: { ...GEMINI, ...OPENAI, ...ANTHROPIC } });
    expect(resolved.ref.provider).toBe("anthropic");
    const chain = resolved.ref.fallbacks?.map((f) => `${f.provider}:${f.id}`) ?? [];
    const fast = DEFAULT_TIER_MODELS.fast;
    expect(chain).toEqual([
      ...fast.anthropic.slice(1).map((id) => `anthropic:${id}`),
      ...fast.openai.map((id) => `openai:${id}`),
      ...fast.gemini.map((id) => `gemini:${id}`),
    ]);
  });

  test("OpenAI before Gemini when Anthropic has no key", () => {
    const resolved = resolveModel("good", { env: { ...GEMINI, ...OPENAI } });
    expect(resolved.ref.provider).toBe("openai");
    expect(resolved.ref.fallbacks?.at(-1)?.provider).toBe("gemini");
  });

  test("an empty key counts as missing", () => {
    const resolved = resolveModel("fast", { env: { ANTHROPIC_API_KEY: "  ", ...OPENAI } });
    expect(resolved.ref.provider).toBe("openai");
  });

  test("no key at all: a config error (exit 3) naming every variable to set", () => {
    const error = thrownAppError(() => resolveModel("fast", { env: {} }));
    expect(error.kind).toBe("config");
    expect(exitCodeForAppError(error.kind)).toBe(ExitCode.config);
    for (const name of ["ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY"]) {
      expect(error.message).toContain(name);
    }
  });

  test("replay needs no key: the first default candidate is chosen", () => {
    const resolved = resolveModel("fast", { env: {}, requireCredentials: false });
    expect(resolved.ref.id).toBe(DEFAULT_TIER_MODELS.fast.anthropic[0]!);
    expect(resolved.reason).toContain("replay");
  });
});

describe("provider:model and bare ids", () => {
  const env = { ...ANTHROPIC, ...OPENAI, ...GEMINI };

  test("provider prefixes, google as gemini", () => {
    expect(resolveModel("anthropic:claude-opus-5-5", { env }).ref).toEqual({
      provider: "anthropic",
      providerName: "anthropic",
      id: "claude-opus-5-5",
    });
    expect(resolveModel("openai:gpt-4o", { env }).ref.provider).toBe("openai");
    expect(resolveModel("gemini:gemini-3-pro-preview", { env }).ref.provider).toBe("gemini");
    expect(resolveModel("google:gemini-3-flash-preview", { env }).ref).toEqual({
      provider: "gemini",
      providerName: "gemini",
      id: "gemini-3-flash-preview",
    });
  });

  test("explicit models carry no fallbacks", () => {
    expect(resolveModel("anthropic:claude-opus-5-5", { env }).ref.fallbacks).toBeUndefined();
  });

  test("bare ids: provider detected from the id", () => {
    expect(detectProvider("claude-sonnet-4-5-20250929")).toBe("anthropic");
    expect(detectProvider("gpt-4o")).toBe("openai");
    expect(detectProvider("o3")).toBe("openai");
    expect(detectProvider("o4-mini")).toBe("openai");
    expect(detectProvider("o1-preview")).toBe("openai");
    expect(detectProvider("gemini-3.1-pro-preview")).toBe("gemini");
    expect(detectProvider("llama3.2")).toBeUndefined();
    const resolved = resolveModel("claude-sonnet-5", { env });
    expect(resolved.ref.provider).toBe("anthropic");
    expect(resolved.reason).toContain("detected from id");
  });

  test("an id no provider claims is a usage error that says how to write it", () => {
    const error = thrownAppError(() => resolveModel("llama3.2", { env }));
    expect(error.kind).toBe("usage");
    expect(error.message).toContain("provider:model");
  });

  test("an unknown provider prefix is named", () => {
    const error = thrownAppError(() => resolveModel("lmstudio:llama3.2", { env }));
    expect(error.kind).toBe("usage");
    expect(error.message).toContain('unknown provider "lmstudio"');
  });

  test("ollama:MODEL needs no config and no key: the local Ollama's OpenAI-compatible endpoint", () => {
    const resolved = resolveModel("ollama:llama3.2", { env });
    expect(resolved.ref).toMatchObject({ providerName: "ollama", id: "llama3.2" });
    const ollama = listEndpoints(env).find((e) => e.name === "ollama");
    expect(ollama).toMatchObject({ ready: true, compatible: true, baseUrl: "http://localhost:11434/v1" });
    const remote = listEndpoints({ OLLAMA_HOST: "gpu-box:8080" }).find((e) => e.name === "ollama");
    expect(remote?.baseUrl).toBe("http://gpu-box:8080/v1");
  });

  test("a config provider named ollama replaces the built-in one", () => {
    const config = {
      providers: { ollama: { kind: "openai-compatible" as const, baseUrl: "http://box:1/v1" } },
    };
    const ollamas = listEndpoints(env, config).filter((e) => e.name === "ollama");
    expect(ollamas).toHaveLength(1);
    expect(ollamas[0]?.baseUrl).toBe("http://box:1/v1");
  });

  test("an explicit model whose provider has no key names the variable", () => {
    const error = thrownAppError(() => resolveModel("gemini:gemini-3-pro-preview", { env: ANTHROPIC }));
    expect(error.kind).toBe("config");
    expect(error.message).toContain("GEMINI_API_KEY or GOOGLE_API_KEY");
  });
});

describe("config", () => {
  const ollama: ModelsConfig = {
    providers: { ollama: { kind: "openai-compatible", baseUrl: "http://127.0.0.1:11434/v1" } },
  };

  test("openai-compatible providers from config: name:model, no key needed", () => {
    const resolved = resolveModel("ollama:llama3.2", { env: {}, config: ollama });
    expect(resolved.ref).toEqual({ provider: "openai", providerName: "ollama", id: "llama3.2" });
    expect(resolved.reason).toContain("openai-compatible at http://127.0.0.1:11434/v1");
  });

  test("ids with colons after the provider are kept whole", () => {
    expect(resolveModel("ollama:qwen3:8b", { env: {}, config: ollama }).ref.id).toBe("qwen3:8b");
  });

  test("a compatible provider with api_key_env needs that variable", () => {
    const config: ModelsConfig = {
      providers: {
        vllm: { kind: "openai-compatible", baseUrl: "http://127.0.0.1:8000/v1", apiKeyEnv: "VLLM_KEY" },
      },
    };
    expect(thrownAppError(() => resolveModel("vllm:m", { env: {}, config })).message).toContain("VLLM_KEY");
    expect(resolveModel("vllm:m", { env: { VLLM_KEY: "k-123456789" }, config }).reason).toContain(
      "VLLM_KEY set",
    );
  });

  test("a config override replaces the tier's candidates, skipping those without credentials", () => {
    const config: ModelsConfig = {
      ...ollama,
      models: { fast: ["openai:gpt-4o-mini", "ollama:llama3.2", "claude-haiku-4-5"] },
    };
    const resolved = resolveModel("fast", { env: ANTHROPIC, config });
    expect(resolved.ref.providerName).toBe("ollama");
    expect(resolved.ref.fallbacks?.map((f) => f.id)).toEqual(["claude-haiku-4-5"]);
    expect(resolved.source).toBe("config");
    expect(resolved.reason).toContain("config models.fast");
    // Other tiers keep their defaults.
    expect(resolveModel("best", { env: ANTHROPIC, config }).ref.id).toBe(
      DEFAULT_TIER_MODELS.best.anthropic[0]!,
    );
  });

  test("an override none of whose models has credentials names what to set", () => {
    const error = thrownAppError(() =>
      resolveModel("good", { env: ANTHROPIC, config: { models: { good: ["gpt-4o"] } } }),
    );
    expect(error.kind).toBe("config");
    expect(error.message).toContain("config maps good to gpt-4o");
    expect(error.message).toContain("OPENAI_API_KEY");
  });
});

describe("catalog", () => {
  test("known ids and dated aliases", () => {
    const info = modelInfo("claude-sonnet-4-5-20250929");
    expect(info.known).toBe(true);
    expect(info.provider).toBe("anthropic");
    expect(info.price.input).toBe(3);
    expect(info.contextWindow).toBe(200_000);
    expect(modelInfo("gpt-4o").price).toEqual({ input: 2.5, output: 10, cacheRead: 1.25, cacheWrite: 2.5 });
  });

  test("unknown ids get conservative defaults", () => {
    const info = modelInfo("claude-future-9", "anthropic");
    expect(info).toMatchObject({ id: "claude-future-9", provider: "anthropic", known: false });
    expect(info.contextWindow).toBeLessThanOrEqual(128_000);
    // Prices err high, so budgets stop early rather than late.
    expect(info.price.input).toBeGreaterThanOrEqual(modelInfo("claude-opus-5-5").price.input);
    expect(modelInfo("llama3.2", "openai", { free: true }).price.output).toBe(0);
  });

  test("costOf sums every token kind at its price", () => {
    const info = modelInfo("claude-haiku-4-5");
    const cost = costOf(
      {
        inputTokens: 1_000_000,
        outputTokens: 100_000,
        cacheReadTokens: 2_000_000,
        cacheWriteTokens: 400_000,
        reasoningTokens: 0,
      },
      info,
    );
    expect(cost).toBeCloseTo(1 + 0.5 + 0.2 + 0.5, 10);
  });
});
