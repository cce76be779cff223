/**
 * The process's catalog, built on first use (never at import): the models.dev snapshot shipped in the
 * repository, superseded model by model by the cached refresh under $XDG_CACHE_HOME/agent/models.json
 * when that copy is newer, then our overrides. Reading it never touches the network; a refresh is
 * `refreshCatalog` (refresh.ts), run only by the user's command.
 */
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { ModelPrice } from "../../kernel/index.ts";
import type { Catalog } from "./merge.ts";
import type { CatalogData, CompactModel } from "./models-dev.ts";
import { fromPremerged, type PremergedCatalog } from "./premerged.ts";
import { plausiblePrice } from "./price-guard.ts";
import { type LineIndex, lineIndex } from "./tiers.ts";

/** $XDG_CACHE_HOME/agent/models.json (default ~/.cache/agent/models.json). */
export function catalogCachePath(env: Record<string, string | undefined> = process.env): string {
  const base =
    env.XDG_CACHE_HOME && env.XDG_CACHE_HOME !== "" ? env.XDG_CACHE_HOME : join(homedir(), ".cache");
  return join(base, "agent", "models.json");
}

function snapshot(): CatalogData {
  // require, not import: the JSON is parsed on the first model lookup, not at start-up.
  return require("./models-snapshot.json") as CatalogData;
}

/** The cached refresh when it is readable and well formed; a broken file is ignored (it is only a cache). */
function readCache(path: string): CatalogData | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return undefined;
  }
  const data = raw as Partial<CatalogData>;
  if (typeof data?.source !== "string" || typeof data.date !== "string" || !Array.isArray(data.models))
    return undefined;
  const models = data.models.filter(
    (m: Partial<CompactModel>) =>
      typeof m?.id === "string" &&
      typeof m.provider === "string" &&
      typeof m.context === "number" &&
      typeof m.output === "number",
  );
  return { source: data.source, date: data.date, models };
}

/** A refreshed model keeps the snapshot's price when its own is missing or zero (price-guard.ts). */
function withPlausibleCost(model: CompactModel, earlier: CompactModel | undefined): CompactModel {
  if (plausiblePrice(fullCost(model.cost)) || !earlier?.cost || !plausiblePrice(fullCost(earlier.cost)))
    return model;
  return { ...model, cost: earlier.cost };
}

function fullCost(cost: CompactModel["cost"]): ModelPrice | undefined {
  return cost ? { input: cost.input, output: cost.output, cacheRead: 0, cacheWrite: 0 } : undefined;
}

/** Snapshot and cache combined: the cache's models win when the cache is newer, never with a worse price. */
export function combine(base: CatalogData, cache: CatalogData | undefined): CatalogData {
  if (!cache || cache.date <= base.date) return base;
  const earlier = new Map(base.models.map((m) => [m.id, m]));
  const ids = new Set(cache.models.map((m) => m.id));
  return {
    source: cache.source,
    date: cache.date,
    models: [
      ...cache.models.map((m) => withPlausibleCost(m, earlier.get(m.id))),
      ...base.models.filter((m) => !ids.has(m.id)),
    ],
  };
}

/** The snapshot merged with the overrides ahead of time (premerged.ts). */
function premerged(): PremergedCatalog {
  return require("./catalog-merged.json") as PremergedCatalog;
}

let loaded: Catalog | undefined;
/** The loaded catalog's line index: the premerged file's, or built from a merged refresh on first use. */
let loadedLines: LineIndex | undefined;

/** The catalog, built once per process: the premerged snapshot unless a newer cached refresh exists. */
export function catalog(): Catalog {
  if (loaded) return loaded;
  const cache = readCache(catalogCachePath());
  const base = premerged();
  // The rule of combine(): a cache supersedes the snapshot only when it is newer.
  if (!cache || cache.date <= base.date) {
    loaded = fromPremerged(base);
    loadedLines = base.lines;
  } else {
    // require, not import: the merge and the overrides load only when a newer refresh must be merged.
    const { mergeCatalog } = require("./merge.ts") as typeof import("./merge.ts");
    loaded = mergeCatalog(combine(snapshot(), cache));
  }
  return loaded;
}

/** Each tier line's model ids in the catalog, newest first (tiers.ts `lineIndex`). */
export function catalogLineIndex(): LineIndex {
  const { entries } = catalog();
  loadedLines ??= lineIndex([...entries.values()]);
  return loadedLines;
}

/** Forget the built catalog (after a refresh, or in tests that change $XDG_CACHE_HOME). */
export function resetCatalog(): void {
  loaded = undefined;
  loadedLines = undefined;
}
