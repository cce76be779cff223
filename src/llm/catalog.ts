/**
 * A small model catalog: context window, output limit, USD prices per million tokens, prompt-length
 * price tiers, and the reasoning efforts each model accepts. It drives budgets, cost reports and the
 * reasoning settings the adapters send; unknown models work with conservative defaults (`known: false`).
 *
 * Sources (read 2026-11-23; standard, non-batch rates):
 * - Anthropic: platform.claude.com/docs/en/about-claude/models/overview (lineup, context, output,
 *   thinking, default effort), the per-model pages models/<id>/overview (cache write/read rates),
 *   models/haiku-5-5/overview ("From $0.10": prompts over 100K tokens are billed at 5x on every token),
 *   models/fable-5-2/whats-new-fable-5-2 (Fable 5.2, $8/$40, released 2026-11-09).
 * - OpenAI: developers.openai.com/api/docs/models/<id> and /api/docs/pricing (cached input and the
 *   30-minute cache-write rate; above 272K input tokens the whole request bills input and cache at 2x,
 *   output at 1.5x).
 * - Gemini: ai.google.dev/gemini-api/docs/pricing and /docs/deprecations (gemini-3-pro-preview shut down
 *   2026-03-09; gemini-2.5-pro and gemini-2.5-flash retired in 2026), and the Gemini 3 thinking pages
 *   (docs.cloud.google.com/.../thinking, .../3-5-flash-lite) for the thinking levels each model accepts.
 * - OpenAI reasoning efforts (`reasoning.effort`):
 *   - gpt-6-astra: low, medium, high, xhigh, max; `none` and `minimal` answer 400 "Unsupported value";
 *     default medium (UKGovernmentBEIS/inspect_ai#5254 live probes; BerriAI/litellm-docs#1173;
 *     developers.openai.com/api/docs/guides/latest-model).
 *   - gpt-6.1-sol: low, medium (default), high, xhigh, max; none and minimal are gone
 *     (dev.to/aihubmix "Choosing a reasoning effort for GPT-6.1 Sol", quoting OpenAI's reasoning guide).
 *   - gpt-6-luna, gpt-5.6-luna: none, low, medium, high, xhigh, max (docs.oxen.ai model pages, which
 *     quote OpenAI's: "Chat Completions supports function calling only with reasoning effort set to none").
 *   - gpt-6.1-terra: none, low, medium (default), high, xhigh, max (apidog.com/blog/gpt-6-1-terra-api,
 *     citing OpenAI's model page).
 *   - `minimal` is refused by every GPT-6 model (qiita.com/Synthorai GPT-6 Astra effort measurements).
 * Cache writes: Anthropic's 5-minute write rate (1.25x input); OpenAI's 30-minute write rate (1.25x
 * input, GPT-6 family); Gemini charges implicit-cache writes at the input rate.
 */
import type { ModelInfo, ModelPrice, ProviderKind, ReasoningEffort, Usage } from "../kernel/index.ts";

type Price = ModelPrice;

interface CatalogEntry {
  provider: ProviderKind;
  contextWindow: number;
  maxOutputTokens: number;
  price: Price;
  /** Prompt-length tier (see ModelInfo.longContext). */
  longContext?: { above: number; price: Price };
  /** Other ids the provider accepts for the same model (dated snapshots, aliases). */
  aliases?: string[];
  /**
   * Reasoning efforts the model accepts, weakest first, in our normalized names (OpenAI
   * `reasoning.effort`, Anthropic `output_config.effort`, Gemini `thinkingLevel`); src/llm/effort.ts maps a
   * requested effort onto them. Absent: Anthropic and Gemini send no reasoning setting, OpenAI sends the
   * requested value unchanged (nothing is known to refuse it).
   */
  efforts?: readonly ReasoningEffort[];
  /** The effort we send when the request names none (absent: nothing is sent, `modelDefault` applies). */
  defaultEffort?: ReasoningEffort;
  /** The effort the model itself runs at when a request sends none (its provider's documented default). */
  modelDefault?: ReasoningEffort;
  /** Anthropic: the model takes `thinking: {type: "adaptive"}` (Claude 5 family). */
  adaptiveThinking?: boolean;
}

const K = 1_000;
const M = 1_000_000;

/** Anthropic: cache read 0.1x input unless the model page says otherwise, 5-minute write 1.25x input. */
function claude(input: number, output: number, cacheRead = input / 10): Price {
  return { input, output, cacheRead, cacheWrite: input * 1.25 };
}

/** OpenAI GPT-6 family: 30-minute cache writes at 1.25x input. */
function gpt6(input: number, output: number, cacheRead: number): Price {
  return { input, output, cacheRead, cacheWrite: input * 1.25 };
}

/** Gemini, and OpenAI models without a published write premium: writes at the input rate. */
function flat(input: number, output: number, cacheRead: number): Price {
  return { input, output, cacheRead, cacheWrite: input };
}

/** OpenAI above 272K input tokens: input and cache at 2x, output at 1.5x, for the whole request. */
function openaiLong(price: Price): CatalogEntry["longContext"] {
  return {
    above: 272 * K,
    price: {
      input: price.input * 2,
      output: price.output * 1.5,
      cacheRead: price.cacheRead * 2,
      cacheWrite: price.cacheWrite * 2,
    },
  };
}

/** Claude 5 family: 1M context, 128K output, adaptive thinking, effort low..max. */
const CLAUDE_5 = {
  provider: "anthropic",
  contextWindow: M,
  maxOutputTokens: 128 * K,
  efforts: ["low", "medium", "high", "xhigh", "max"],
  adaptiveThinking: true,
} as const;

/** GPT-6 family: 1.05M context (922K input), 128K output. */
const GPT_6 = { provider: "openai", contextWindow: 1_050 * K, maxOutputTokens: 128 * K } as const;

/** OpenAI efforts (sources above): every GPT-6 model refuses `minimal`; some also refuse `none`. */
const OPENAI_WITH_NONE = {
  efforts: ["none", "low", "medium", "high", "xhigh", "max"],
  modelDefault: "medium",
} as const;
const OPENAI_NO_NONE = {
  efforts: ["low", "medium", "high", "xhigh", "max"],
  modelDefault: "medium",
} as const;

/** Gemini 3: 1,048,576 context, 65,536 output. */
const GEMINI_3 = { provider: "gemini", contextWindow: 1_048_576, maxOutputTokens: 65_536 } as const;

const HAIKU_5_5 = claude(0.1, 0.5, 0.01);
const ASTRA = gpt6(10, 50, 1);
const SOL_6_1 = gpt6(2, 10, 0.1);
const SOL_6 = gpt6(2, 10, 0.2);
const TERRA_6_1 = gpt6(1, 5, 0.05);
const LUNA_6 = gpt6(0.1, 0.5, 0.01);

const CATALOG: Record<string, CatalogEntry> = {
  // Anthropic, current lineup
  "claude-fable-5-2": { ...CLAUDE_5, price: claude(8, 40, 0.2) },
  // Fable 5.1: cache reads cut to a quarter of Fable 5's (models/fable-5-1/overview).
  "claude-fable-5-1": { ...CLAUDE_5, price: claude(10, 50, 0.25) },
  "claude-opus-5-5": { ...CLAUDE_5, price: claude(4, 20, 0.2) },
  // Sonnet 5.5 cache reads: $0.10 since 2026-10-07 (pricing page).
  "claude-sonnet-5-5": { ...CLAUDE_5, price: claude(2, 10, 0.1) },
  "claude-haiku-5-5": {
    ...CLAUDE_5,
    price: HAIKU_5_5,
    longContext: {
      above: 100 * K,
      price: { input: 0.5, output: 2.5, cacheRead: 0.05, cacheWrite: 0.625 },
    },
  },
  // Anthropic, legacy but available
  "claude-fable-5": { ...CLAUDE_5, price: claude(10, 50) },
  "claude-opus-5": { ...CLAUDE_5, price: claude(5, 25) },
  "claude-sonnet-5": { ...CLAUDE_5, price: claude(2, 10, 0.2) },
  "claude-opus-4-5": {
    provider: "anthropic",
    contextWindow: 200 * K,
    maxOutputTokens: 64 * K,
    price: claude(5, 25),
    aliases: ["claude-opus-4-5-20251101"],
  },
  // The SDK warns: end-of-life 2026-11-30 (node_modules/@anthropic-ai/sdk DEPRECATED_MODELS).
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
  "gpt-6-astra": { ...GPT_6, ...OPENAI_NO_NONE, price: ASTRA, longContext: openaiLong(ASTRA) },
  "gpt-6.1-sol": { ...GPT_6, ...OPENAI_NO_NONE, price: SOL_6_1, longContext: openaiLong(SOL_6_1) },
  "gpt-6.1-terra": {
    ...GPT_6,
    ...OPENAI_WITH_NONE,
    price: TERRA_6_1,
    longContext: openaiLong(TERRA_6_1),
  },
  "gpt-6-sol": { ...GPT_6, price: SOL_6, longContext: openaiLong(SOL_6) },
  "gpt-6-luna": { ...GPT_6, ...OPENAI_WITH_NONE, price: LUNA_6, longContext: openaiLong(LUNA_6) },
  // OpenAI, previous generations
  "gpt-5.6-sol": { ...GPT_6, price: flat(4, 20, 0.4), aliases: ["gpt-5.6"] },
  "gpt-5.6-terra": { ...GPT_6, price: flat(2, 12, 0.2) },
  "gpt-5.6-luna": { ...GPT_6, ...OPENAI_WITH_NONE, price: flat(0.2, 1.2, 0.02) },
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
  // Gemini (thinking levels: LOW, MEDIUM, HIGH; MINIMAL only where listed)
  "gemini-3.1-pro-preview": {
    ...GEMINI_3,
    price: flat(2, 12, 0.2),
    longContext: { above: 200 * K, price: flat(4, 18, 0.4) },
    efforts: ["low", "medium", "high"],
  },
  "gemini-3.8-flash": {
    ...GEMINI_3,
    // Launch price through 2026-12-31; $1.50 / $7.50 from 2027-01-01.
    price: flat(0.75, 3.75, 0.075),
    efforts: ["low", "medium", "high"],
  },
  "gemini-3.5-flash": {
    ...GEMINI_3,
    price: flat(1.5, 9, 0.15),
    efforts: ["minimal", "low", "medium", "high"],
  },
  "gemini-3.5-flash-lite": {
    ...GEMINI_3,
    price: flat(0.3, 2.5, 0.03),
    efforts: ["minimal", "low", "medium", "high"],
    // Its own default is MINIMAL, which Google says may end multi-step tool use early; agents need MEDIUM+.
    defaultEffort: "medium",
  },
  "gemini-3-flash-preview": {
    ...GEMINI_3,
    price: flat(0.5, 3, 0.05),
    efforts: ["minimal", "low", "medium", "high"],
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

/** An id's entry: exact, an alias, or (OpenAI) a dated snapshot `gpt-6-luna-2026-09-22` as its base. */
function lookup(id: string): [string, CatalogEntry] | undefined {
  const exact = CATALOG[id];
  if (exact) return [id, exact];
  const aliased = ALIASES.get(id);
  if (aliased) {
    const entry = CATALOG[aliased];
    if (entry) return [aliased, entry];
  }
  const base = id.replace(/-\d{4}-\d{2}-\d{2}$/, "");
  const snapshot = base !== id ? CATALOG[base] : undefined;
  return snapshot ? [base, snapshot] : undefined;
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
    const info: ModelInfo = {
      id,
      provider: entry.provider,
      contextWindow: entry.contextWindow,
      maxOutputTokens: entry.maxOutputTokens,
      price: { ...entry.price },
      known: true,
    };
    if (entry.longContext)
      info.longContext = { above: entry.longContext.above, price: { ...entry.longContext.price } };
    return info;
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
}

/** The reasoning settings of a known model, or undefined when the catalog lists no efforts for it. */
export function reasoningSupport(id: string): ReasoningSupport | undefined {
  const entry = lookup(id)?.[1];
  if (!entry?.efforts) return undefined;
  const out: ReasoningSupport = {
    efforts: entry.efforts,
    adaptiveThinking: entry.adaptiveThinking === true,
  };
  if (entry.defaultEffort) out.defaultEffort = entry.defaultEffort;
  if (entry.modelDefault) out.modelDefault = entry.modelDefault;
  return out;
}
