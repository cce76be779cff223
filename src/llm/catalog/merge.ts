/**
 * One catalog from models.dev data and our overrides (see overrides.ts for the rule): models.dev gives
 * the facts, an override's facts win only for a model models.dev lacks or last updated before the
 * override was read, and its quirks always apply. Prices are guarded (price-guard.ts): a refreshed price
 * never replaces a cited one when it is zero, missing, lower, or the override schedules a price change;
 * a model with no plausible price anywhere is marked `priceUnknown` (budgets count it at the
 * conservative default). Pure: the store calls it once per process.
 */
import type { ModelPrice } from "../../kernel/index.ts";
import type { CatalogEntry } from "./entry.ts";
import type { CatalogData, CompactCost, CompactModel } from "./models-dev.ts";
import { OVERRIDES, type Override } from "./overrides.ts";
import { isNonChat, plausiblePrice, refreshedPriceStands } from "./price-guard.ts";

export interface Catalog {
  entries: ReadonlyMap<string, CatalogEntry>;
  /** Alias id -> canonical id. */
  aliases: ReadonlyMap<string, string>;
  /** Where the models.dev part came from, and its date. */
  source: string;
  date: string;
}

function fullPrice(cost: CompactCost | undefined): ModelPrice {
  const input = cost?.input ?? 0;
  return {
    input,
    output: cost?.output ?? 0,
    cacheRead: cost?.cacheRead ?? input,
    cacheWrite: cost?.cacheWrite ?? input,
  };
}

function fromModelsDev(model: CompactModel): CatalogEntry {
  const entry: CatalogEntry = {
    id: model.id,
    provider: model.provider,
    name: model.name,
    contextWindow: model.context,
    maxOutputTokens: model.output,
    price: fullPrice(model.cost),
    // models.dev `limit.input` (kept only when below the window, models-dev.ts).
    ...(model.input !== undefined ? { maxInputTokens: model.input } : {}),
    reasoning: model.reasoning,
    toolCall: model.toolCall,
    origin: "models.dev",
  };
  const tier = model.cost?.tiers?.[0];
  if (tier) entry.longContext = { above: tier.above, price: fullPrice(tier) };
  if (model.family) entry.family = model.family;
  if (model.efforts) entry.efforts = model.efforts;
  if (model.temperature !== undefined) entry.temperature = model.temperature;
  if (model.releaseDate) entry.releaseDate = model.releaseDate;
  if (model.lastUpdated) entry.lastUpdated = model.lastUpdated;
  if (model.knowledge) entry.knowledge = model.knowledge;
  if (model.status) entry.status = model.status;
  if (!model.cost || !plausiblePrice(entry.price)) entry.priceUnknown = true;
  if (isNonChat(model)) entry.nonChat = true;
  return entry;
}

/** The override's facts win when models.dev lacks the model or its data predates the override. */
function factsWin(entry: CatalogEntry | undefined, override: Override, dataDate: string): boolean {
  return entry === undefined || dataDate < override.asOf;
}

function applyOverride(
  id: string,
  entry: CatalogEntry | undefined,
  override: Override,
  dataDate: string,
): CatalogEntry | undefined {
  const facts = override.facts;
  let out: CatalogEntry;
  if (entry) {
    out = { ...entry, origin: "models.dev+override", source: override.source };
  } else {
    // Without models.dev data, an override needs the facts to stand alone.
    if (!facts?.price || !facts.contextWindow || !facts.maxOutputTokens) return undefined;
    out = {
      id,
      provider: override.provider,
      name: facts.name ?? id,
      contextWindow: facts.contextWindow,
      maxOutputTokens: facts.maxOutputTokens,
      ...(facts.maxInputTokens !== undefined ? { maxInputTokens: facts.maxInputTokens } : {}),
      price: facts.price,
      reasoning: facts.reasoning ?? false,
      toolCall: true,
      origin: "override",
      source: override.source,
    };
  }
  const win = facts !== undefined && factsWin(entry, override, dataDate);
  if (facts && win) {
    if (facts.name) out.name = facts.name;
    if (facts.family) out.family = facts.family;
    if (facts.contextWindow) {
      out.contextWindow = facts.contextWindow;
      // A window the override states comes with its own input limit, or none.
      if (facts.maxInputTokens) out.maxInputTokens = facts.maxInputTokens;
      else delete out.maxInputTokens;
    }
    if (facts.maxOutputTokens) out.maxOutputTokens = facts.maxOutputTokens;
    if (facts.releaseDate) out.releaseDate = facts.releaseDate;
    if (facts.reasoning !== undefined) out.reasoning = facts.reasoning;
  }
  // The cited price stands unless the facts lost to newer data and that data's price may replace it.
  if (facts?.price && (win || !refreshedPriceStands(out.price, facts.price, override))) {
    out.price = { ...facts.price };
    if (facts.longContext) out.longContext = facts.longContext;
    else delete out.longContext;
    delete out.priceUnknown;
  }
  const quirks = [
    "efforts",
    "defaultEffort",
    "modelDefault",
    "adaptiveThinking",
    "thinkingOptIn",
    "prefixCheck",
    "temperature",
    "reasoningSummary",
    "scheduled",
    "restricted",
    "status",
    "retires",
    "replacement",
    "aliases",
  ] as const;
  for (const key of quirks) {
    const value = override[key];
    if (value !== undefined) (out as unknown as Record<string, unknown>)[key] = value;
  }
  return out;
}

/** `gpt-5.6-sol` -> [5, 6]; `gpt-6-astra` -> [6, 0]; undefined for other ids. */
export function gptVersion(id: string): [number, number] | undefined {
  const match = /^gpt-(\d+)(?:\.(\d+))?(?:-|$)/.exec(id);
  return match ? [Number(match[1]), Number(match[2] ?? 0)] : undefined;
}

function isGpt56OrLater(id: string): boolean {
  const version = gptVersion(id);
  return version !== undefined && (version[0] > 5 || (version[0] === 5 && version[1] >= 6));
}

/** OpenAI's GPT-5.6+ billing (cited in overrides.ts): writes at 1.25x input; above 272K input tokens
 * the whole request at 2x input and cache, 1.5x output. */
function gpt56Billing(price: ModelPrice): {
  price: ModelPrice;
  longContext: { above: number; price: ModelPrice };
} {
  const withWrites = { ...price, cacheWrite: price.input * 1.25 };
  return {
    price: withWrites,
    longContext: {
      above: 272_000,
      price: {
        input: withWrites.input * 2,
        output: withWrites.output * 1.5,
        cacheRead: withWrites.cacheRead * 2,
        cacheWrite: withWrites.cacheWrite * 2,
      },
    },
  };
}

function withBillingRules(entry: CatalogEntry): CatalogEntry {
  if (entry.provider !== "openai" || !isGpt56OrLater(entry.id)) return entry;
  const billed = gpt56Billing(entry.price);
  const out: CatalogEntry = { ...entry, price: billed.price, longContext: billed.longContext };
  if (entry.scheduled)
    out.scheduled = entry.scheduled.map((s) => {
      const b = gpt56Billing(s.price);
      return { until: s.until, price: b.price, longContext: b.longContext };
    });
  return out;
}

/** `-preview` / `-exp` ids are previews whatever the data says. */
function withPreviewStatus(entry: CatalogEntry): CatalogEntry {
  return /-(preview|exp)(-|$)/.test(entry.id) && entry.status === undefined
    ? { ...entry, status: "preview" }
    : entry;
}

/** The catalog of `data` (snapshot or cached refresh) with `overrides` applied. */
export function mergeCatalog(
  data: CatalogData,
  overrides: Readonly<Record<string, Override>> = OVERRIDES,
): Catalog {
  const entries = new Map<string, CatalogEntry>();
  for (const model of data.models) entries.set(model.id, fromModelsDev(model));
  for (const [id, override] of Object.entries(overrides)) {
    const existing = entries.get(id);
    if (existing && existing.provider !== override.provider) continue;
    const merged = applyOverride(id, existing, override, data.date);
    if (merged) entries.set(id, merged);
  }
  // An alias models.dev lists as a model of its own (a dated snapshot) becomes a name of the canonical
  // entry, so it shares its retirement and quirks.
  const aliases = new Map<string, string>();
  for (const [id, entry] of [...entries]) {
    for (const alias of entry.aliases ?? []) {
      entries.delete(alias);
      aliases.set(alias, id);
    }
  }
  for (const [id, entry] of entries) entries.set(id, withPreviewStatus(withBillingRules(entry)));
  return { entries, aliases, source: data.source, date: data.date };
}

/**
 * The models of a refresh whose price differs from our cited one and was not taken (zero, missing,
 * lower, or the override schedules a change), each as `id: refreshed $IN/$OUT, kept $IN/$OUT`, so a
 * refresh says which prices it did not apply instead of dropping them silently.
 */
export function keptCitedPrices(
  models: readonly CompactModel[],
  overrides: Readonly<Record<string, Override>> = OVERRIDES,
): string[] {
  const kept: string[] = [];
  for (const model of models) {
    const override = overrides[model.id];
    const cited = override?.facts?.price;
    if (!override || !cited || override.provider !== model.provider) continue;
    const refreshed = fullPrice(model.cost);
    if (refreshed.input === cited.input && refreshed.output === cited.output) continue;
    if (!refreshedPriceStands(refreshed, cited, override))
      kept.push(
        `${model.id}: refreshed $${refreshed.input}/$${refreshed.output}, kept $${cited.input}/$${cited.output}`,
      );
  }
  return kept;
}
