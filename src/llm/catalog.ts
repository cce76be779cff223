/**
 * A small model catalog: context window, output limit and USD prices per million tokens.
 * It drives budgets and cost reports; unknown models work with conservative defaults (`known: false`).
 *
 * Sources (checked November 2026): platform.claude.com model overviews and pricing,
 * developers.openai.com models and pricing, ai.google.dev Gemini API pricing. Prices are the
 * standard (non-batch) rates for prompts within the base tier (Claude Haiku 5.5 up to 100K tokens,
 * Gemini Pro up to 200K, OpenAI up to 272K). Cache writes: Anthropic's 5-minute write rate; OpenAI and
 * Gemini do not charge a write premium, so it equals the input rate.
 */
import type { ModelInfo, ProviderKind, Usage } from "../kernel/index.ts";

type Price = ModelInfo["price"];

interface CatalogEntry {
  provider: ProviderKind;
  contextWindow: number;
  maxOutputTokens: number;
  price: Price;
  /** Other ids the provider accepts for the same model (dated snapshots, aliases). */
  aliases?: string[];
}

const K = 1_000;
const M = 1_000_000;

/** Anthropic: cache read is 0.1x input, the 5-minute cache write 1.25x input. */
function claude(input: number, output: number, cacheRead = input / 10): Price {
  return { input, output, cacheRead, cacheWrite: input * 1.25 };
}

/** OpenAI and Gemini: cached input is discounted, writes cost the normal input rate. */
function flat(input: number, output: number, cacheRead: number): Price {
  return { input, output, cacheRead, cacheWrite: input };
}

const CATALOG: Record<string, CatalogEntry> = {
  // Anthropic, current lineup
  "claude-fable-5-1": {
    provider: "anthropic",
    contextWindow: M,
    maxOutputTokens: 128 * K,
    price: claude(10, 50),
  },
  "claude-opus-5-5": {
    provider: "anthropic",
    contextWindow: M,
    maxOutputTokens: 128 * K,
    price: claude(4, 20),
  },
  "claude-sonnet-5-5": {
    provider: "anthropic",
    contextWindow: M,
    maxOutputTokens: 128 * K,
    price: claude(2, 10, 0.1),
  },
  "claude-haiku-5-5": {
    provider: "anthropic",
    contextWindow: M,
    maxOutputTokens: 128 * K,
    price: claude(0.1, 0.5),
  },
  // Anthropic, legacy but available
  "claude-fable-5": {
    provider: "anthropic",
    contextWindow: M,
    maxOutputTokens: 128 * K,
    price: claude(10, 50),
  },
  "claude-opus-5": {
    provider: "anthropic",
    contextWindow: M,
    maxOutputTokens: 128 * K,
    price: claude(5, 25),
  },
  "claude-sonnet-5": {
    provider: "anthropic",
    contextWindow: M,
    maxOutputTokens: 128 * K,
    price: claude(2, 10),
  },
  "claude-opus-4-5": {
    provider: "anthropic",
    contextWindow: 200 * K,
    maxOutputTokens: 64 * K,
    price: claude(5, 25),
    aliases: ["claude-opus-4-5-20251101"],
  },
  "claude-sonnet-4-5": {
    provider: "anthropic",
    contextWindow: 200 * K,
    maxOutputTokens: 64 * K,
    price: claude(3, 15),
    aliases: ["claude-sonnet-4-5-20250929"],
  },
  "claude-haiku-4-5": {
    provider: "anthropic",
    contextWindow: 200 * K,
    maxOutputTokens: 64 * K,
    price: claude(1, 5),
    aliases: ["claude-haiku-4-5-20251001"],
  },
  // OpenAI, current lineup
  "gpt-6-astra": {
    provider: "openai",
    contextWindow: 1_050 * K,
    maxOutputTokens: 128 * K,
    price: flat(10, 50, 1),
  },
  "gpt-6.1-sol": {
    provider: "openai",
    contextWindow: 1_050 * K,
    maxOutputTokens: 128 * K,
    price: flat(2, 10, 0.1),
  },
  "gpt-6.1-terra": {
    provider: "openai",
    contextWindow: 1_050 * K,
    maxOutputTokens: 128 * K,
    price: flat(1, 5, 0.05),
  },
  "gpt-6-luna": {
    provider: "openai",
    contextWindow: 1_050 * K,
    maxOutputTokens: 128 * K,
    price: flat(0.1, 0.5, 0.01),
  },
  // OpenAI, previous generations
  "gpt-5.6-sol": {
    provider: "openai",
    contextWindow: 1_050 * K,
    maxOutputTokens: 128 * K,
    price: flat(4, 20, 0.4),
    aliases: ["gpt-5.6"],
  },
  "gpt-5.6-terra": {
    provider: "openai",
    contextWindow: 1_050 * K,
    maxOutputTokens: 128 * K,
    price: flat(2, 12, 0.2),
  },
  "gpt-5.6-luna": {
    provider: "openai",
    contextWindow: 1_050 * K,
    maxOutputTokens: 128 * K,
    price: flat(0.2, 1.2, 0.02),
  },
  "gpt-5.4-mini": {
    provider: "openai",
    contextWindow: 400 * K,
    maxOutputTokens: 128 * K,
    price: flat(0.75, 4.5, 0.075),
  },
  "gpt-4o": {
    provider: "openai",
    contextWindow: 128 * K,
    maxOutputTokens: 16_384,
    price: flat(2.5, 10, 1.25),
  },
  "gpt-4o-mini": {
    provider: "openai",
    contextWindow: 128 * K,
    maxOutputTokens: 16_384,
    price: flat(0.15, 0.6, 0.075),
  },
  // Gemini
  "gemini-3.1-pro-preview": {
    provider: "gemini",
    contextWindow: 1_048_576,
    maxOutputTokens: 65_536,
    price: flat(2, 12, 0.2),
  },
  "gemini-3-pro-preview": {
    provider: "gemini",
    contextWindow: 1_048_576,
    maxOutputTokens: 65_536,
    price: flat(2, 12, 0.2),
  },
  "gemini-3.8-flash": {
    provider: "gemini",
    contextWindow: 1_048_576,
    maxOutputTokens: 65_536,
    // Launch price through 2026-12-31; $1.50 / $7.50 from 2027-01-01.
    price: flat(0.75, 3.75, 0.075),
  },
  "gemini-3.5-flash": {
    provider: "gemini",
    contextWindow: 1_048_576,
    maxOutputTokens: 65_536,
    price: flat(1.5, 9, 0.15),
  },
  "gemini-3.5-flash-lite": {
    provider: "gemini",
    contextWindow: 1_048_576,
    maxOutputTokens: 65_536,
    price: flat(0.3, 2.5, 0.03),
  },
  "gemini-3-flash-preview": {
    provider: "gemini",
    contextWindow: 1_048_576,
    maxOutputTokens: 65_536,
    price: flat(0.5, 3, 0.05),
  },
  "gemini-2.5-pro": {
    provider: "gemini",
    contextWindow: 1_048_576,
    maxOutputTokens: 65_536,
    price: flat(1.25, 10, 0.125),
  },
  "gemini-2.5-flash": {
    provider: "gemini",
    contextWindow: 1_048_576,
    maxOutputTokens: 65_536,
    price: flat(0.3, 2.5, 0.03),
  },
};

const ALIASES: Map<string, string> = new Map();
for (const [id, entry] of Object.entries(CATALOG)) {
  for (const alias of entry.aliases ?? []) ALIASES.set(alias, id);
}

/** Conservative defaults for a model the catalog does not know: a small window, a modest output
 * limit, and prices at the top of the current range so budgets err on the safe side. */
const UNKNOWN_DEFAULTS = {
  contextWindow: 128 * K,
  maxOutputTokens: 8_192,
  price: { input: 10, output: 50, cacheRead: 1, cacheWrite: 12.5 },
} as const;

/** Local servers (Ollama, LM Studio, ...) cost nothing per token; only their window is unknown. */
const FREE: Price = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };

function lookup(id: string): [string, CatalogEntry] | undefined {
  const exact = CATALOG[id];
  if (exact) return [id, exact];
  const aliased = ALIASES.get(id);
  if (aliased) {
    const entry = CATALOG[aliased];
    if (entry) return [aliased, entry];
  }
  return undefined;
}

/** The id's provider when the catalog knows it. */
export function catalogProvider(id: string): ProviderKind | undefined {
  return lookup(id)?.[1].provider;
}

/** Every catalog id (canonical names only), for listings and tests. */
export function catalogIds(): string[] {
  return Object.keys(CATALOG);
}

/**
 * Facts about a model. Unknown ids (including every model of an openai-compatible server) get
 * conservative defaults and `known: false`; pass `free: true` for local servers that charge nothing.
 */
export function modelInfo(id: string, provider?: ProviderKind, options: { free?: boolean } = {}): ModelInfo {
  const found = lookup(id);
  if (found && (provider === undefined || found[1].provider === provider)) {
    const [, entry] = found;
    return {
      id,
      provider: entry.provider,
      contextWindow: entry.contextWindow,
      maxOutputTokens: entry.maxOutputTokens,
      price: { ...entry.price },
      known: true,
    };
  }
  return {
    id,
    provider: provider ?? found?.[1].provider ?? "openai",
    contextWindow: UNKNOWN_DEFAULTS.contextWindow,
    maxOutputTokens: UNKNOWN_DEFAULTS.maxOutputTokens,
    price: options.free ? { ...FREE } : { ...UNKNOWN_DEFAULTS.price },
    known: false,
  };
}

/** USD cost of `usage` at the model's prices. */
export function costOf(usage: Usage, info: ModelInfo): number {
  const { price } = info;
  return (
    (usage.inputTokens * price.input +
      usage.outputTokens * price.output +
      usage.cacheReadTokens * price.cacheRead +
      usage.cacheWriteTokens * price.cacheWrite) /
    M
  );
}
