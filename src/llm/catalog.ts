/**
 * The model catalog's questions, answered from the catalog built on first use (src/llm/catalog/):
 * models.dev facts (the snapshot in the repository, or a newer cached refresh) plus our cited overrides
 * (src/llm/catalog/overrides.ts). It drives budgets, cost reports and the settings the adapters send;
 * unknown models work with conservative defaults (`known: false`).
 */
import type { ModelInfo, ModelPrice, ProviderKind, ReasoningEffort, Usage } from "../kernel/index.ts";
import type { CatalogEntry } from "./catalog/entry.ts";
import { OVERRIDES_CHECKED } from "./catalog/overrides-checked.ts";
import { replacementOf, retirementNotice } from "./catalog/retirement.ts";
import { anthropicSdkDeprecations } from "./catalog/sdk-deprecations.ts";
import { catalog, catalogLineIndex } from "./catalog/store.ts";
import type { LineMembers } from "./catalog/tiers.ts";

export type { CatalogEntry } from "./catalog/entry.ts";

const K = 1_000;
const M = 1_000_000;

/** Conservative defaults for a model the catalog does not know: a small window, a modest output
 * limit, and prices at the top of the current range so budgets err on the safe side. The same price
 * counts a catalogued model whose price is unknown (`priceUnknown`: none, or zero, in models.dev). */
export const UNKNOWN_DEFAULTS = {
  contextWindow: 128 * K,
  maxOutputTokens: 8_192,
  price: { input: 10, output: 50, cacheRead: 1, cacheWrite: 12.5 },
} as const;

/** Local servers (Ollama, LM Studio, ...) cost nothing per token; only their window is unknown. */
const FREE: ModelPrice = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };

/** An id's entry: exact, an alias, or (OpenAI) a dated snapshot `gpt-6-luna-2026-09-22` the catalog
 * does not list on its own, as its base. A listed snapshot (a retired one too) is never mapped. */
function lookup(id: string): CatalogEntry | undefined {
  const { entries, aliases } = catalog();
  const exact = entries.get(id);
  if (exact) return exact;
  const aliased = aliases.get(id);
  if (aliased) return entries.get(aliased);
  const base = id.replace(/-\d{4}-\d{2}-\d{2}$/, "");
  return base !== id ? entries.get(base) : undefined;
}

/** The catalog's entry for an id (exact, alias or dated snapshot), or undefined. */
export function catalogEntry(id: string): CatalogEntry | undefined {
  return lookup(id);
}

/** Every entry, for listings, tiers and aliases. */
export function catalogEntries(): CatalogEntry[] {
  return [...catalog().entries.values()];
}

/** Each tier line's entries, newest first, from the catalog's line index (no filtering or sorting). */
export function catalogLines(): LineMembers {
  const { entries } = catalog();
  const index = catalogLineIndex();
  return (provider, line) =>
    (index[provider][line] ?? []).flatMap((id) => {
      const entry = entries.get(id);
      return entry ? [entry] : [];
    });
}

/** Where the catalog's models.dev data came from, and its date. */
export function catalogSource(): { source: string; date: string } {
  const { source, date } = catalog();
  return { source, date };
}

/** The day our cited overrides were last checked against the providers' pages. */
export function overridesChecked(): string {
  return OVERRIDES_CHECKED;
}

/** The id's provider when the catalog knows it. */
export function catalogProvider(id: string): ProviderKind | undefined {
  return lookup(id)?.provider;
}

/** Every catalog id (canonical names only), for listings and tests. */
export function catalogIds(): string[] {
  return [...catalog().entries.keys()];
}

/** The price in force on `day` (YYYY-MM-DD): the first scheduled price not yet expired, else the list price. */
function priceOn(entry: CatalogEntry, day: string): Pick<CatalogEntry, "price" | "longContext"> {
  const current = entry.scheduled?.find((s) => day <= s.until);
  if (!current) return entry;
  return current.longContext
    ? { price: current.price, longContext: current.longContext }
    : { price: current.price, ...(entry.longContext ? { longContext: entry.longContext } : {}) };
}

function copyPrice(price: ModelPrice): ModelPrice {
  return { ...price };
}

/**
 * Facts about a model. Unknown ids (including every model of an openai-compatible server) get
 * conservative defaults and `known: false`; pass `free: true` for local servers that charge nothing.
 * Prices are those in force on `now` (default: today), so a promotion expires by itself.
 */
export function modelInfo(
  id: string,
  provider?: ProviderKind,
  options: { free?: boolean; now?: Date } = {},
): ModelInfo {
  const found = lookup(id);
  if (found && (provider === undefined || found.provider === provider)) {
    const priced = priceOn(found, (options.now ?? new Date()).toISOString().slice(0, 10));
    const info: ModelInfo = {
      id,
      provider: found.provider,
      contextWindow: found.contextWindow,
      maxOutputTokens: found.maxOutputTokens,
      price: copyPrice(priced.price),
      known: true,
    };
    if (found.maxInputTokens !== undefined) info.maxInputTokens = found.maxInputTokens;
    if (found.priceUnknown && !found.scheduled) {
      info.price = options.free ? { ...FREE } : { ...UNKNOWN_DEFAULTS.price };
      if (!options.free) info.priceEstimated = true;
      return info;
    }
    if (priced.longContext)
      info.longContext = { above: priced.longContext.above, price: copyPrice(priced.longContext.price) };
    return info;
  }
  return {
    id,
    provider: provider ?? found?.provider ?? "openai",
    contextWindow: UNKNOWN_DEFAULTS.contextWindow,
    maxOutputTokens: UNKNOWN_DEFAULTS.maxOutputTokens,
    price: options.free ? { ...FREE } : { ...UNKNOWN_DEFAULTS.price },
    known: false,
    ...(options.free ? {} : { priceEstimated: true }),
  };
}

/** The line a run prints once for a model whose price is not known, naming the price it counts. */
export function estimatedPriceNotice(id: string): string {
  const { input, output } = UNKNOWN_DEFAULTS.price;
  return `no known price for ${id}: costs and --max-budget-usd count it at $${input}/$${output} per million input/output tokens (a conservative default)`;
}

/**
 * USD cost of one request's `usage` at the model's prices. The four buckets are disjoint (see Usage),
 * so each token is priced once; a prompt over the model's long-context threshold bills every token of
 * the request at the long-context rates.
 */
export function costOf(usage: Usage, info: ModelInfo): number {
  const prompt = usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
  const price = info.longContext && prompt > info.longContext.above ? info.longContext.price : info.price;
  return (
    (usage.inputTokens * price.input +
      usage.outputTokens * price.output +
      usage.cacheReadTokens * price.cacheRead +
      usage.cacheWriteTokens * price.cacheWrite) /
    M
  );
}

/** Reasoning settings of a known model (see CatalogEntry): accepted efforts, weakest first, and defaults. */
export interface ReasoningSupport {
  efforts: readonly ReasoningEffort[];
  defaultEffort?: ReasoningEffort;
  modelDefault?: ReasoningEffort;
  adaptiveThinking: boolean;
  /** See CatalogEntry.thinkingOptIn. */
  thinkingOptIn: boolean;
}

/** The reasoning settings of a known model, or undefined when the catalog lists no efforts for it. */
export function reasoningSupport(id: string): ReasoningSupport | undefined {
  const entry = lookup(id);
  if (!entry?.efforts || entry.efforts.length === 0) return undefined;
  const out: ReasoningSupport = {
    efforts: entry.efforts,
    adaptiveThinking: entry.adaptiveThinking === true,
    thinkingOptIn: entry.thinkingOptIn === true,
  };
  if (entry.defaultEffort) out.defaultEffort = entry.defaultEffort;
  if (entry.modelDefault) out.modelDefault = entry.modelDefault;
  return out;
}

/** Anthropic: the model runs the thinking prefix check, so `block_binding` and its beta may be sent. */
export function hasPrefixCheck(id: string): boolean {
  return lookup(id)?.prefixCheck === true;
}

/** False when the catalog says the API ignores or refuses `temperature` (Gemini 3+, reasoning GPTs). */
export function acceptsTemperature(id: string): boolean {
  return lookup(id)?.temperature !== false;
}

/**
 * OpenAI Responses: the model returns reasoning summaries when `reasoning.summary` is requested: an
 * override says so, or it is an OpenAI model the catalog knows to reason (reasoning settings are "gpt-5 and
 * o-series models only", openai shared.d.ts `Reasoning`; OpenAI's reasoning guide, "Reasoning summaries").
 */
export function supportsReasoningSummary(id: string): boolean {
  const entry = lookup(id);
  if (entry?.reasoningSummary !== undefined) return entry.reasoningSummary;
  return entry?.provider === "openai" && entry.reasoning;
}

/** True only for a model the catalog knows and knows not to reason (gpt-4o, gpt-4.1, ...); an unknown
 * id is not known not to. */
export function knownNotToReason(id: string): boolean {
  return lookup(id)?.reasoning === false;
}

/**
 * The id's entry with the Anthropic SDK's own end-of-life day (sdk-deprecations.ts) where the catalog
 * has none; an id the SDK lists but the catalog does not gets an entry of its own for the notice.
 */
function withSdkRetirement(id: string, entry: CatalogEntry | undefined): CatalogEntry | undefined {
  if (entry?.retires || (entry && entry.provider !== "anthropic")) return entry;
  const deprecations = anthropicSdkDeprecations();
  const day = [id, entry?.id, ...(entry?.aliases ?? [])]
    .map((name) => (name ? deprecations.get(name) : undefined))
    .find((d) => d !== undefined);
  if (!day) return entry;
  if (entry) return { ...entry, retires: day };
  return {
    id,
    provider: "anthropic",
    name: id,
    contextWindow: UNKNOWN_DEFAULTS.contextWindow,
    maxOutputTokens: UNKNOWN_DEFAULTS.maxOutputTokens,
    price: { ...UNKNOWN_DEFAULTS.price },
    reasoning: false,
    toolCall: true,
    retires: day,
    origin: "override",
    source: "@anthropic-ai/sdk internal/data/deprecated-models",
  };
}

/** An Anthropic-looking id the catalog does not know may still be on the SDK's list. */
function retirementEntry(id: string): CatalogEntry | undefined {
  const entry = lookup(id);
  return entry || id.startsWith("claude-") ? withSdkRetirement(id, entry) : undefined;
}

/**
 * One line when `id` is within 30 days of its shutdown or past it (or deprecated), naming the
 * replacement; undefined otherwise or for a model outside the catalog.
 */
export function retirementWarning(id: string, now: Date = new Date()): string | undefined {
  const entry = retirementEntry(id);
  return entry ? retirementNotice(id, entry, catalogLines(), now) : undefined;
}

/** The id's shutdown day and replacement (catalog or the Anthropic SDK's list), and whether it has passed. */
export function retirementOf(
  id: string,
  provider: ProviderKind,
  now: Date = new Date(),
): { retires: string; replacement?: string; past: boolean } | undefined {
  const entry = retirementEntry(id);
  if (!entry?.retires || entry.provider !== provider) return undefined;
  const past = Date.parse(`${entry.retires}T00:00:00Z`) <= now.getTime();
  const replacement = replacementOf(entry, catalogLines(), now);
  return { retires: entry.retires, past, ...(replacement ? { replacement } : {}) };
}
