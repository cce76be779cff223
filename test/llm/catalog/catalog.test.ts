/**
 * The catalog: snapshot + cached refresh + cited overrides (src/llm/catalog/), its billing rules, and
 * the refresh against the fake server's api.json. Each test pins a finding of issue 20.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { emptyUsage } from "../../../src/kernel/index.ts";
import { mergeCatalog } from "../../../src/llm/catalog/merge.ts";
import type { CatalogData } from "../../../src/llm/catalog/models-dev.ts";
import { OVERRIDES } from "../../../src/llm/catalog/overrides.ts";
import { type PremergedCatalog, toPremerged } from "../../../src/llm/catalog/premerged.ts";
import { refreshCatalog } from "../../../src/llm/catalog/refresh.ts";
import { catalog, catalogCachePath, combine, resetCatalog } from "../../../src/llm/catalog/store.ts";
import { LINES, membersOf } from "../../../src/llm/catalog/tiers.ts";
import {
  catalogEntries,
  catalogEntry,
  catalogLines,
  catalogSource,
  costOf,
  modelInfo,
} from "../../../src/llm/catalog.ts";
import { type FakeLlmServer, startFakeLlmServer } from "../../support/fake-llm-server.ts";

const FIXTURE = join(import.meta.dir, "../../fixtures/models-dev/api.json");
const day = (iso: string) => new Date(`${iso}T12:00:00Z`);

describe("start-up cost", () => {
  test("catalog-merged.json is what mergeCatalog builds from the snapshot and the overrides today", () => {
    const snapshot = require("../../../src/llm/catalog/models-snapshot.json") as CatalogData;
    const committed = require("../../../src/llm/catalog/catalog-merged.json") as PremergedCatalog;
    const fresh = JSON.parse(JSON.stringify(toPremerged(mergeCatalog(snapshot)))) as PremergedCatalog;
    // On a failure: an override or the snapshot changed; run `bun scripts/catalog-merged.ts` and commit the file.
    expect(committed).toEqual(fresh);
  });

  test("a catalog built from the premerged file equals the merge, Maps and all", () => {
    const previous = process.env.XDG_CACHE_HOME;
    process.env.XDG_CACHE_HOME = mkdtempSync(join(tmpdir(), "agent-catalog-"));
    try {
      resetCatalog();
      const snapshot = require("../../../src/llm/catalog/models-snapshot.json") as CatalogData;
      const built = catalog();
      const merged = mergeCatalog(snapshot);
      expect([...built.entries]).toEqual([...merged.entries]);
      expect([...built.aliases]).toEqual([...merged.aliases]);
      expect([built.source, built.date]).toEqual([merged.source, merged.date]);
    } finally {
      rmSync(process.env.XDG_CACHE_HOME, { recursive: true, force: true });
      if (previous === undefined) delete process.env.XDG_CACHE_HOME;
      else process.env.XDG_CACHE_HOME = previous;
      resetCatalog();
    }
  });
});

describe("the line index", () => {
  /** Every line's members by the index, and by filtering and sorting the catalog's entries. */
  function bothWays(): { indexed: string[][]; filtered: string[][] } {
    const filter = membersOf(catalogEntries());
    const lines = (["anthropic", "openai", "gemini"] as const).flatMap((provider) =>
      Object.keys(LINES[provider]).map((line) => [provider, line] as const),
    );
    return {
      indexed: lines.map(([provider, line]) => catalogLines()(provider, line).map((e) => e.id)),
      filtered: lines.map(([provider, line]) => filter(provider, line).map((e) => e.id)),
    };
  }

  function withCache<T>(cacheHome: string, run: () => T): T {
    const previous = process.env.XDG_CACHE_HOME;
    process.env.XDG_CACHE_HOME = cacheHome;
    try {
      resetCatalog();
      return run();
    } finally {
      if (previous === undefined) delete process.env.XDG_CACHE_HOME;
      else process.env.XDG_CACHE_HOME = previous;
      resetCatalog();
      rmSync(cacheHome, { recursive: true, force: true });
    }
  }

  test("the premerged catalog's index lists each line's models, newest first, as filtering the entries does", () => {
    const { indexed, filtered } = withCache(mkdtempSync(join(tmpdir(), "agent-catalog-")), bothWays);
    expect(indexed).toEqual(filtered);
    expect(indexed.flat().length).toBeGreaterThan(30);
  });

  test("a newer cached refresh gets its own index: a model it adds joins its line", () => {
    const home = mkdtempSync(join(tmpdir(), "agent-catalog-"));
    const snapshot = require("../../../src/llm/catalog/models-snapshot.json") as CatalogData;
    const haiku = snapshot.models.find((m) => m.id === "claude-haiku-4-5");
    if (!haiku) throw new Error("the snapshot has no claude-haiku-4-5");
    const refreshed: CatalogData = {
      ...snapshot,
      date: "2099-01-01",
      models: [...snapshot.models, { ...haiku, id: "claude-haiku-9", releaseDate: "2098-12-01" }],
    };
    mkdirSync(join(home, "agent"), { recursive: true });
    writeFileSync(join(home, "agent", "models.json"), JSON.stringify(refreshed));
    const { indexed, filtered } = withCache(home, bothWays);
    expect(indexed).toEqual(filtered);
    expect(indexed.flat()).toContain("claude-haiku-9");
  });
});

describe("snapshot and overrides", () => {
  test("the snapshot names its models.dev commit and date, and lists the three providers' models", () => {
    const snapshot = require("../../../src/llm/catalog/models-snapshot.json") as CatalogData;
    expect(snapshot.source).toBe("models.dev f3fc692299671838c7c65fd8126bf84d81a2e817");
    expect(snapshot.date).toBe("2026-07-02");
    const providers = new Set(snapshot.models.map((m) => m.provider));
    expect([...providers].sort()).toEqual(["anthropic", "gemini", "openai"]);
    expect(snapshot.models.find((m) => m.id === "gpt-5.5")?.cost?.tiers?.[0]?.above).toBe(272_000);
  });

  test("models released after the snapshot come from overrides, each citing its source", () => {
    for (const id of [
      "gpt-6.2-astra",
      "gpt-6.2-sol",
      "gemini-4-argon",
      "gemini-4-neon",
      "gemini-4-hydrogen",
    ]) {
      const entry = catalogEntry(id);
      expect(entry?.origin).toBe("override");
      expect(entry?.source ?? "").toMatch(/https:\/\//);
    }
    for (const [id, override] of Object.entries(OVERRIDES)) {
      expect(`${id}: ${override.source}`).toMatch(/: .*\S/);
      expect(override.asOf).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
    // Finding: an id missing from the catalog fell back to 128K / 8,192 / $10/$50.
    const astra = modelInfo("gpt-6.2-astra", undefined, { now: day("2026-11-26") });
    expect(astra.known).toBe(true);
    expect(astra.contextWindow).toBe(1_050_000);
    expect(astra.maxOutputTokens).toBe(128_000);
    expect(astra.price).toEqual({ input: 8, output: 40, cacheRead: 0.4, cacheWrite: 10 });
  });

  test("a refresh newer than an override supersedes the override's facts; its quirks stay", () => {
    const data: CatalogData = {
      source: "test",
      date: "2026-12-10",
      models: [
        {
          id: "gpt-6.2-sol",
          provider: "openai",
          name: "GPT-6.2 Sol",
          context: 2_000_000,
          output: 200_000,
          cost: { input: 1.5, output: 9, cacheRead: 0.15 },
          reasoning: true,
          toolCall: true,
        },
      ],
    };
    const merged = mergeCatalog(data).entries.get("gpt-6.2-sol");
    expect(merged?.contextWindow).toBe(2_000_000);
    // A refreshed price lower than the cited one ($2/$10) never replaces it (price-guard.ts).
    expect(merged?.price.input).toBe(2);
    expect(merged?.price.output).toBe(10);
    expect(merged?.efforts).toEqual(["low", "medium", "high", "xhigh", "max"]);
    // A plausible refreshed price at or above the cited one does.
    const higher = { ...data, models: data.models.map((m) => ({ ...m, cost: { input: 3, output: 12 } })) };
    expect(mergeCatalog(higher).entries.get("gpt-6.2-sol")?.price.input).toBe(3);
    // An older data set keeps the override's facts.
    const older = mergeCatalog({ ...data, date: "2026-07-02" }).entries.get("gpt-6.2-sol");
    expect(older?.contextWindow).toBe(1_050_000);
  });

  test("a refresh recording an introductory price as the list price keeps the cited schedule", () => {
    // models.dev's gemini-3.8-flash.toml: 0.75/3.75 (the launch price), 1.50/7.50 from 2027 in a note.
    const data: CatalogData = {
      source: "test",
      date: "2026-12-10",
      models: [
        {
          id: "gemini-3.8-flash",
          provider: "gemini",
          name: "Gemini 3.8 Flash",
          context: 1_048_576,
          output: 65_536,
          cost: { input: 0.75, output: 3.75, cacheRead: 0.075 },
          reasoning: true,
          toolCall: true,
        },
      ],
    };
    const merged = mergeCatalog(data).entries.get("gemini-3.8-flash");
    expect(merged?.price).toEqual({ input: 1.5, output: 7.5, cacheRead: 0.15, cacheWrite: 1.5 });
    expect(merged?.scheduled?.[0]?.until).toBe("2026-12-31");
  });

  test("a refreshed zero or missing price never replaces a cited or snapshot price", () => {
    const snapshot = require("../../../src/llm/catalog/models-snapshot.json") as CatalogData;
    const free = (id: string, provider: "anthropic" | "openai") => ({
      id,
      provider,
      name: id,
      context: 1_000_000,
      output: 128_000,
      cost: { input: 0, output: 0 },
      reasoning: true,
      toolCall: true,
    });
    const cache: CatalogData = {
      source: "refresh",
      date: "2026-12-10",
      models: [
        free("gpt-6.2-astra", "openai"),
        free("claude-opus-4-8", "anthropic"),
        free("gpt-9-new", "openai"),
      ],
    };
    const merged = mergeCatalog(combine(snapshot, cache)).entries;
    expect(merged.get("gpt-6.2-astra")?.price.input).toBe(8);
    expect(merged.get("claude-opus-4-8")?.price.input).toBe(5);
    // A model nobody prices is marked, and counted at the conservative default.
    expect(merged.get("gpt-9-new")?.priceUnknown).toBe(true);
  });

  test("a retired dated snapshot is its own entry, never the live model", () => {
    const dated = catalogEntry("gpt-4o-2024-05-13");
    expect(dated?.id).toBe("gpt-4o-2024-05-13");
    expect(dated?.retires).toBe("2026-10-23");
    expect(catalogEntry("gpt-4o")?.retires).toBe("2027-01-14");
    // An unlisted dated snapshot of a live model still maps to its base.
    expect(catalogEntry("gpt-6-luna-2026-09-22")?.id).toBe("gpt-6-luna");
    expect(catalogEntry("claude-sonnet-4-5-20250929")?.id).toBe("claude-sonnet-4-5");
  });
});

describe("billing as the providers bill", () => {
  const usage = { ...emptyUsage(), inputTokens: 100_000, cacheWriteTokens: 20_000, outputTokens: 10_000 };

  test("OpenAI gpt-6.2-astra: a known request's cost matches the pricing page", () => {
    // developers.openai.com/api/docs/pricing: $8 input, $40 output, cache writes 1.25x input ($10).
    const info = modelInfo("gpt-6.2-astra", undefined, { now: day("2026-11-26") });
    expect(costOf(usage, info)).toBeCloseTo((100_000 * 8 + 20_000 * 10 + 10_000 * 40) / 1e6, 9);
  });

  test("GPT-5.6: cache writes at 1.25x input, and past 272K input the whole request at 2x / 1.5x", () => {
    const terra = modelInfo("gpt-5.6-terra", undefined, { now: day("2026-11-26") });
    expect(terra.price.cacheWrite).toBeCloseTo(2 * 1.25, 9);
    const long = { ...emptyUsage(), inputTokens: 300_000, outputTokens: 1_000 };
    expect(costOf(long, terra)).toBeCloseTo((300_000 * 4 + 1_000 * 18) / 1e6, 9);
  });

  test("gpt-5.6-sol's promotion ($4/$20) ended 2026-11-21; the list price ($5/$30/$0.50) applies after", () => {
    expect(modelInfo("gpt-5.6-sol", undefined, { now: day("2026-11-21") }).price.input).toBe(4);
    const after = modelInfo("gpt-5.6-sol", undefined, { now: day("2026-11-22") }).price;
    expect(after).toEqual({ input: 5, output: 30, cacheRead: 0.5, cacheWrite: 6.25 });
  });

  test("Anthropic claude-sonnet-5-5: a known request's cost matches the pricing page", () => {
    // platform.claude.com/docs/en/about-claude/pricing: $2 input, $10 output, 5-minute writes $2.50.
    expect(costOf(usage, modelInfo("claude-sonnet-5-5"))).toBeCloseTo(
      (100_000 * 2 + 20_000 * 2.5 + 10_000 * 10) / 1e6,
      9,
    );
  });

  test("Gemini gemini-4-argon: the launch price holds through 2026-11-30, then $4/$20", () => {
    // ai.google.dev/gemini-api/docs/pricing (litellm discussion #46238): $2/$10 at launch, doubling 2026-12-01.
    const launch = modelInfo("gemini-4-argon", undefined, { now: day("2026-11-30") });
    expect(costOf(usage, launch)).toBeCloseTo((100_000 * 2 + 20_000 * 2 + 10_000 * 10) / 1e6, 9);
    const later = modelInfo("gemini-4-argon", undefined, { now: day("2026-12-01") });
    expect(later.price).toEqual({ input: 4, output: 20, cacheRead: 0.2, cacheWrite: 4 });
  });
});

describe("refreshCatalog", () => {
  let server: FakeLlmServer;
  let cache: string;
  beforeAll(async () => {
    server = await startFakeLlmServer();
  });
  afterAll(async () => {
    await server.close();
  });
  afterEach(() => {
    rmSync(cache, { recursive: true, force: true });
    resetCatalog();
  });

  function env(): Record<string, string> {
    cache = mkdtempSync(join(tmpdir(), "agent-catalog-"));
    return { XDG_CACHE_HOME: cache };
  }

  test("downloads api.json, keeps our providers' models, writes the cache atomically, and the catalog uses it", async () => {
    server.serveCatalog(readFileSync(FIXTURE, "utf8"));
    const environment = env();
    const result = await refreshCatalog(`${server.url}/api.json`, {
      env: environment,
      now: day("2026-11-26"),
    });
    if (!result.ok) throw new Error(result.note);
    expect(result.path).toBe(join(cache, "agent", "models.json"));
    expect(result.models).toBe(2);
    expect(result.skipped.join("\n")).toContain("broken-model");
    const written = JSON.parse(readFileSync(result.path, "utf8")) as CatalogData;
    expect(written.models.map((m) => m.id).sort()).toEqual(["claude-sonnet-5-5", "gpt-7-nova"]);
    expect(existsSync(`${result.path}.${process.pid}.tmp`)).toBe(false);

    const previous = process.env.XDG_CACHE_HOME;
    process.env.XDG_CACHE_HOME = cache;
    try {
      resetCatalog();
      const nova = modelInfo("gpt-7-nova");
      expect(nova.known).toBe(true);
      expect(nova.contextWindow).toBe(777_000);
      expect(nova.maxOutputTokens).toBe(33_000);
      // GPT-5.6+ rules apply to refreshed data too: writes at 1.25x input.
      expect(nova.price).toEqual({ input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 });
      expect(catalogSource()).toEqual({ source: `${server.url}/api.json`, date: "2026-11-26" });
      // The snapshot's other models are still there.
      expect(modelInfo("gpt-5.5").known).toBe(true);
    } finally {
      if (previous === undefined) delete process.env.XDG_CACHE_HOME;
      else process.env.XDG_CACHE_HOME = previous;
    }
  });

  test("a bad download leaves the cache alone and says so in one line", async () => {
    const environment = env();
    const path = catalogCachePath(environment);
    mkdirSync(dirname(path), { recursive: true });
    const previous = JSON.stringify({ source: "earlier", date: "2026-11-01", models: [] });
    writeFileSync(path, previous);
    server.serveCatalog({ error: "down" }, 503);
    const failed = await refreshCatalog(`${server.url}/api.json`, { env: environment });
    expect(failed).toEqual({
      ok: false,
      note: `model catalog not refreshed (HTTP 503 from ${server.url}/api.json); using the built-in snapshot`,
    });
    server.serveCatalog("<html>not json</html>");
    const notJson = await refreshCatalog(`${server.url}/api.json`, { env: environment });
    expect(notJson.ok ? "" : notJson.note).toContain("did not answer JSON");
    server.serveCatalog({ openai: { models: {} } });
    const empty = await refreshCatalog(`${server.url}/api.json`, { env: environment });
    expect(empty.ok ? "" : empty.note).toContain("lists no anthropic, openai or google model");
    expect(readFileSync(path, "utf8")).toBe(previous);
  });
});
