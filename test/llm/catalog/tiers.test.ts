/** Tiers and aliases chosen from the catalog by rules (src/llm/catalog/tiers.ts), config pins winning. */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { AppError } from "../../../src/kernel/index.ts";
import type { CatalogEntry } from "../../../src/llm/catalog/entry.ts";
import { aliasTarget, chooseTier } from "../../../src/llm/catalog/tiers.ts";
import { catalogEntry } from "../../../src/llm/catalog.ts";
import {
  aliasNames,
  DEFAULT_TIER_MODELS,
  explainTiers,
  resolveModel,
  TIERS,
} from "../../../src/llm/resolve.ts";

const NOW = new Date("2026-11-26T12:00:00Z");
const KEYS = {
  ANTHROPIC_API_KEY: "sk-ant-test-key-0001",
  OPENAI_API_KEY: "sk-test-openai-key-0001",
  GEMINI_API_KEY: "gemini-test-key-0001",
};

function entry(id: string, extra: Partial<CatalogEntry> = {}): CatalogEntry {
  return {
    id,
    provider: "anthropic",
    name: id,
    contextWindow: 1_000_000,
    maxOutputTokens: 128_000,
    price: { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 },
    reasoning: true,
    toolCall: true,
    origin: "override",
    ...extra,
  };
}

describe("tier defaults follow the catalog", () => {
  test("best is each provider's newest generally available flagship (issue 20: gpt-6-astra and a preview were sent)", () => {
    expect(DEFAULT_TIER_MODELS.best.openai[0]).toBe("gpt-6.2-astra");
    // Google ranks Gemini 4 Carbon (GA 2026-11-10, "Google's strongest reasoning model") above Argon.
    expect(DEFAULT_TIER_MODELS.best.gemini[0]).toBe("gemini-4-carbon");
    expect(DEFAULT_TIER_MODELS.best.anthropic[0]).toBe("claude-fable-5-2");
    expect(DEFAULT_TIER_MODELS.good.openai[0]).toBe("gpt-6.2-sol");
  });

  test("no default is a preview, deprecated, restricted or retiring model", () => {
    for (const tier of TIERS)
      for (const ids of Object.values(DEFAULT_TIER_MODELS[tier]))
        for (const id of ids) {
          const found = catalogEntry(id);
          expect(found?.status).toBeUndefined();
          expect(found?.restricted).toBeUndefined();
          expect(found?.retires).toBeUndefined();
        }
  });

  test("a model within 30 days of shutdown, a preview and a restricted one are passed over, with the reason", () => {
    const entries = [
      entry("claude-sonnet-9", { retires: "2026-12-20" }),
      entry("claude-sonnet-8-5", { status: "preview" }),
      entry("claude-sonnet-8"),
      entry("claude-sonnet-7"),
      entry("claude-fable-9", { restricted: true }),
    ];
    const good = chooseTier(entries, "good", "anthropic", NOW);
    expect(good.candidates).toEqual(["claude-sonnet-8", "claude-sonnet-7"]);
    expect(good.skipped).toEqual([
      { id: "claude-sonnet-9", reason: "retires 2026-12-20" },
      { id: "claude-sonnet-8-5", reason: "preview" },
    ]);
    expect(good.why[0]).toBe("claude-sonnet-8: newest generally available sonnet model");
    // Past the 30-day window the model is eligible again.
    expect(chooseTier(entries, "good", "anthropic", new Date("2026-11-01T00:00:00Z")).candidates[0]).toBe(
      "claude-sonnet-9",
    );
  });

  test("explainTiers gives every tier's choice per provider with the rule and the why", () => {
    const choices = explainTiers(NOW);
    expect(choices).toHaveLength(9);
    const best = choices.find((c) => c.tier === "best" && c.provider === "openai");
    expect(best?.rule).toContain("newest generally available flagship");
    expect(best?.why[0]).toBe("gpt-6.2-astra: newest generally available astra model, released 2026-11-17");
  });

  test("docs/models.md's tier list is the catalog's choice", () => {
    const doc = readFileSync(join(import.meta.dir, "../../../docs/models.md"), "utf8").replace(/\s+/g, " ");
    for (const tier of TIERS) {
      const firsts = (["anthropic", "openai", "gemini"] as const).map((p) => DEFAULT_TIER_MODELS[tier][p][0]);
      expect(doc).toContain(`${tier}: ${firsts.join(", ")}`);
    }
  });

  test("a config pin still wins over the rule", () => {
    const resolved = resolveModel("best", {
      env: KEYS,
      config: { models: { best: ["openai:gpt-6-astra"] } },
    });
    expect(resolved.ref.id).toBe("gpt-6-astra");
    expect(resolved.source).toBe("config");
  });
});

describe("aliases", () => {
  test("haiku, sonnet, opus, sol, flash name the newest catalog model of their line", () => {
    expect(resolveModel("sonnet", { env: KEYS }).ref).toEqual({
      provider: "anthropic",
      providerName: "anthropic",
      id: "claude-sonnet-5-5",
    });
    expect(resolveModel("haiku", { env: KEYS }).ref.id).toBe("claude-haiku-5-5");
    expect(resolveModel("opus", { env: KEYS }).ref.id).toBe("claude-opus-5-5");
    expect(resolveModel("sol", { env: KEYS }).ref.id).toBe("gpt-6.2-sol");
    expect(resolveModel("flash", { env: KEYS }).ref.id).toBe("gemini-3.8-flash");
    expect(resolveModel("sonnet", { env: KEYS }).reason).toContain(
      "alias: the newest generally available sonnet",
    );
  });

  test("a newer model in the catalog moves the alias", () => {
    const entries = [entry("claude-haiku-5-5"), entry("claude-haiku-6")];
    expect(aliasTarget(entries, "haiku", NOW)?.id).toBe("claude-haiku-6");
  });

  test("an unknown short name's error lists the aliases", () => {
    let error: unknown;
    try {
      resolveModel("sonet", { env: KEYS });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).kind).toBe("usage");
    expect((error as AppError).message).toContain(`an alias (${aliasNames().join(", ")})`);
    expect(aliasNames()).toEqual(expect.arrayContaining(["haiku", "sonnet", "opus", "sol", "flash"]));
  });
});
