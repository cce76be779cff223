/**
 * Our own facts on top of models.dev: what it lacks (accepted efforts, protocol quirks, prefix checks,
 * retirement dates, time-limited prices) and every model released after the snapshot (2026-07-02).
 * Each entry cites the page it came from (read 2026-11-23..29); OVERRIDES_CHECKED is the last day they
 * were checked as a whole, shown by `agent models` beside the models.dev date.
 *
 * After any change here run `bun scripts/catalog-merged.ts` (premerged.ts says why).
 *
 * Merge rule (src/llm/catalog/merge.ts): `facts` (limits, dates) apply only when models.dev has no entry
 * for the id or the models.dev data (snapshot commit or refresh day) predates the override's `asOf`, so a
 * refresh by a user online supersedes them; a cited `facts.price` gives way only to a plausible refreshed
 * price that is not lower, and never when the override schedules a price (price-guard.ts); everything
 * else (efforts, quirks, retirement, schedules) always applies.
 *
 * Rules applied to every OpenAI model from GPT-5.6 on, not repeated per entry (merge.ts):
 * - cache writes bill at 1.25x input: "For GPT-5.6 models and later model families, cache writes cost
 *   1.25x the uncached input token rate" (developers.openai.com/api/docs/guides/prompt-caching);
 * - above 272K input tokens the whole request bills input and cache at 2x and output at 1.5x
 *   (developers.openai.com/api/docs/pricing; litellm discussion #39633 quoting it for GPT-6 Astra).
 */
import type { ModelPrice, ProviderKind, ReasoningEffort } from "../../kernel/index.ts";
import type { ScheduledPrice } from "./entry.ts";

export interface OverrideFacts {
  name?: string;
  family?: string;
  contextWindow?: number;
  /** Maximum input tokens, when below the window. */
  maxInputTokens?: number;
  maxOutputTokens?: number;
  price?: ModelPrice;
  longContext?: { above: number; price: ModelPrice };
  releaseDate?: string;
  reasoning?: boolean;
}

export interface Override {
  provider: ProviderKind;
  /** The page(s) the entry's facts come from. */
  source: string;
  /** The day the facts were read (YYYY-MM-DD). */
  asOf: string;
  facts?: OverrideFacts;
  efforts?: readonly ReasoningEffort[];
  defaultEffort?: ReasoningEffort;
  modelDefault?: ReasoningEffort;
  adaptiveThinking?: boolean;
  thinkingOptIn?: boolean;
  prefixCheck?: boolean;
  temperature?: boolean;
  reasoningSummary?: boolean;
  scheduled?: ScheduledPrice[];
  restricted?: boolean;
  status?: "deprecated" | "preview";
  retires?: string;
  replacement?: string;
  aliases?: readonly string[];
}

export { OVERRIDES_CHECKED } from "./overrides-checked.ts";

const K = 1_000;
const M = 1_000_000;

/** A model the provider shuts down (or has shut down) on `retires`, with its recommended replacement. */
function retiring(
  provider: ProviderKind,
  retires: string,
  replacement: string,
  source: string,
  aliases?: readonly string[],
): Override {
  return {
    provider,
    source,
    asOf: "2026-11-29",
    status: "deprecated",
    retires,
    replacement,
    ...(aliases ? { aliases } : {}),
  };
}

/** Anthropic: 5-minute cache writes at 1.25x input (pricing page); reads as the model page states. */
function claude(input: number, output: number, cacheRead = input / 10): ModelPrice {
  return { input, output, cacheRead, cacheWrite: input * 1.25 };
}

/** OpenAI: the GPT-5.6+ write rate is applied by rule in merge.ts. */
function gpt(input: number, output: number, cacheRead: number): ModelPrice {
  return { input, output, cacheRead, cacheWrite: input };
}

/** Gemini: implicit-cache writes bill at the input rate (ai.google.dev/gemini-api/docs/pricing). */
function gemini(input: number, output: number, cacheRead: number): ModelPrice {
  return { input, output, cacheRead, cacheWrite: input };
}

const CLAUDE_MODELS = "https://platform.claude.com/docs/en/about-claude/models/overview";
/** The prefix-checks page lists the models that run the check (issue 20, read 2026-11-26). */
const PREFIX_CHECKS =
  "https://platform.claude.com/docs/en/build-with-claude/extended-thinking#keeping-the-prefix-unchanged";
const CLAUDE_5 = {
  provider: "anthropic",
  adaptiveThinking: true,
  efforts: ["low", "medium", "high", "xhigh", "max"],
} as const;
const CLAUDE_5_FACTS = { contextWindow: M, maxOutputTokens: 128 * K, reasoning: true } as const;

const CLAUDE_4_ADAPTIVE = {
  provider: "anthropic",
  source:
    "https://platform.claude.com/docs/en/build-with-claude/effort; https://docs.aws.amazon.com/bedrock/latest/userguide/claude-messages-adaptive-thinking.html",
  asOf: "2026-11-29",
  adaptiveThinking: true,
  thinkingOptIn: true,
} as const;

const OPENAI_MODELS = "https://developers.openai.com/api/docs/models";
const OPENAI_PRICING = "https://developers.openai.com/api/docs/pricing";
const OPENAI_DEPRECATIONS = "https://developers.openai.com/api/docs/deprecations";
/** GPT-6.x: "1,050,000 context window", "922,000 max input tokens", "128,000 max output tokens"
 * (developers.openai.com/api/docs/models/gpt-6.2-sol, read 2026-11-29; the 6.1 model cards on Google's
 * partner-model pages state the same three limits). */
const GPT_6_FACTS = {
  contextWindow: 1_050 * K,
  maxInputTokens: 922 * K,
  maxOutputTokens: 128 * K,
  reasoning: true,
} as const;
/** OpenAI reasoning models: `reasoning.summary` is accepted (guides/reasoning#reasoning-summaries). */
const OPENAI_REASONING = { provider: "openai", reasoningSummary: true, temperature: false } as const;
const WITH_NONE: readonly ReasoningEffort[] = ["none", "low", "medium", "high", "xhigh", "max"];
const NO_NONE: readonly ReasoningEffort[] = ["low", "medium", "high", "xhigh", "max"];

const GEMINI_MODELS = "https://ai.google.dev/gemini-api/docs/models";
const GEMINI_PRICING = "https://ai.google.dev/gemini-api/docs/pricing";
/** Gemini 3+: temperature deprecated since 2026-07-21 (ignored by 3.5 Flash-Lite); never sent. */
const GEMINI_3 = { provider: "gemini", temperature: false } as const;
const GEMINI_3_FACTS = { contextWindow: 1_048_576, maxOutputTokens: 65_536, reasoning: true } as const;

export const OVERRIDES: Readonly<Record<string, Override>> = {
  // ---- Anthropic ----
  "claude-fable-5-2": {
    ...CLAUDE_5,
    source: `https://platform.claude.com/docs/en/models/fable-5-2/whats-new-fable-5-2; ${PREFIX_CHECKS}`,
    asOf: "2026-11-26",
    facts: {
      ...CLAUDE_5_FACTS,
      name: "Claude Fable 5.2",
      family: "claude-fable",
      price: claude(8, 40, 0.2),
      releaseDate: "2026-11-09",
    },
    prefixCheck: true,
  },
  // Same model as Fable 5.2, for organizations verified through Anthropic's programs only.
  "claude-mythos-5-2": {
    ...CLAUDE_5,
    source:
      "https://platform.claude.com/docs/en/models/fable-5-2/whats-new-fable-5-2; https://docs.aws.amazon.com/bedrock/latest/userguide/model-card-anthropic-claude-mythos-5-2.md",
    asOf: "2026-11-26",
    facts: {
      ...CLAUDE_5_FACTS,
      name: "Claude Mythos 5.2",
      family: "claude-mythos",
      price: claude(8, 40, 0.2),
      releaseDate: "2026-11-09",
    },
    prefixCheck: true,
    restricted: true,
  },
  // Fable 5.1: cache reads a quarter of Fable 5's (models/fable-5-1/overview).
  "claude-fable-5-1": {
    ...CLAUDE_5,
    source: `https://platform.claude.com/docs/en/models/fable-5-1/overview; ${PREFIX_CHECKS}`,
    asOf: "2026-11-23",
    facts: {
      ...CLAUDE_5_FACTS,
      name: "Claude Fable 5.1",
      family: "claude-fable",
      price: claude(10, 50, 0.25),
    },
    prefixCheck: true,
  },
  "claude-mythos-5-1": {
    ...CLAUDE_5,
    source: `https://platform.claude.com/docs/en/models/fable-5-2/whats-new-fable-5-2; ${PREFIX_CHECKS}`,
    asOf: "2026-11-23",
    facts: {
      ...CLAUDE_5_FACTS,
      name: "Claude Mythos 5.1",
      family: "claude-mythos",
      price: claude(10, 50, 0.25),
    },
    prefixCheck: true,
    restricted: true,
  },
  "claude-opus-5-5": {
    ...CLAUDE_5,
    source: `${CLAUDE_MODELS}; https://platform.claude.com/docs/en/models/opus-5-5/overview; ${PREFIX_CHECKS}`,
    asOf: "2026-11-23",
    facts: { ...CLAUDE_5_FACTS, name: "Claude Opus 5.5", family: "claude-opus", price: claude(4, 20, 0.2) },
    prefixCheck: true,
  },
  // Sonnet 5.5 cache reads: $0.10 since 2026-10-07 (pricing page).
  "claude-sonnet-5-5": {
    ...CLAUDE_5,
    source: `${CLAUDE_MODELS}; https://platform.claude.com/docs/en/about-claude/pricing; ${PREFIX_CHECKS}`,
    asOf: "2026-11-23",
    facts: {
      ...CLAUDE_5_FACTS,
      name: "Claude Sonnet 5.5",
      family: "claude-sonnet",
      price: claude(2, 10, 0.1),
    },
    prefixCheck: true,
  },
  // "From $0.10": prompts over 100K tokens bill at 5x on every token (models/haiku-5-5/overview).
  "claude-haiku-5-5": {
    ...CLAUDE_5,
    source: `https://platform.claude.com/docs/en/models/haiku-5-5/overview; ${PREFIX_CHECKS}`,
    asOf: "2026-11-23",
    facts: {
      ...CLAUDE_5_FACTS,
      name: "Claude Haiku 5.5",
      family: "claude-haiku",
      price: claude(0.1, 0.5, 0.01),
      longContext: { above: 100 * K, price: { input: 0.5, output: 2.5, cacheRead: 0.05, cacheWrite: 0.625 } },
    },
    prefixCheck: true,
  },
  "claude-fable-5": {
    ...CLAUDE_5,
    source: "https://platform.claude.com/docs/en/models/fable-5/overview",
    asOf: "2026-11-23",
  },
  "claude-opus-5": {
    ...CLAUDE_5,
    source: CLAUDE_MODELS,
    asOf: "2026-11-23",
    facts: { ...CLAUDE_5_FACTS, name: "Claude Opus 5", family: "claude-opus", price: claude(5, 25) },
  },
  "claude-sonnet-5": { ...CLAUDE_5, source: CLAUDE_MODELS, asOf: "2026-11-23" },
  // End of life 2026-11-30 (node_modules/@anthropic-ai/sdk DEPRECATED_MODELS).
  "claude-sonnet-4-5": {
    provider: "anthropic",
    source:
      "https://platform.claude.com/docs/en/about-claude/model-deprecations; @anthropic-ai/sdk DEPRECATED_MODELS",
    asOf: "2026-11-23",
    retires: "2026-11-30",
    replacement: "claude-sonnet-5-5",
    aliases: ["claude-sonnet-4-5-20250929"],
  },
  // Adaptive thinking with `output_config.effort` (low, medium, high, max; xhigh on Opus 4.7 and 4.8: the
  // efforts models.dev lists): "Adaptive thinking is the recommended way to use Extended thinking with
  // Claude Opus 4.6 … Claude Opus 4.7 … Claude Sonnet 4.6" and "thinking.type: "enabled" and budget_tokens
  // are deprecated on Claude Opus 4.6 and Claude Sonnet 4.6" (docs.aws.amazon.com/bedrock/latest/userguide/
  // claude-messages-adaptive-thinking.html); max "Available on … Claude Opus 4.8, … Claude Opus 4.7, Claude
  // Opus 4.6, … and Claude Sonnet 4.6", xhigh on Opus 4.8 and 4.7 (platform.claude.com/docs/en/
  // build-with-claude/effort). Thinking is off on them unless the request sets it, so it is sent only when
  // the user asks for an effort (`thinkingOptIn`).
  "claude-opus-4-8": { ...CLAUDE_4_ADAPTIVE },
  "claude-opus-4-7": { ...CLAUDE_4_ADAPTIVE },
  "claude-opus-4-6": { ...CLAUDE_4_ADAPTIVE },
  "claude-sonnet-4-6": { ...CLAUDE_4_ADAPTIVE },
  // claude-opus-4-5's end of life, 2027-01-22, comes from the installed SDK's own list
  // (@anthropic-ai/sdk 1.14 internal/data/deprecated-models.js: 'claude-opus-4-5': 'January 22nd, 2027'),
  // read at run time by sdk-deprecations.ts; no date is repeated here.
  "claude-opus-4-5": {
    provider: "anthropic",
    source: CLAUDE_MODELS,
    asOf: "2026-11-29",
    aliases: ["claude-opus-4-5-20251101"],
  },
  // Retired 2026-06-15 with their snapshots (claude-opus-4-20250514, claude-sonnet-4-20250514);
  // replacements claude-opus-4-8 and claude-sonnet-4-6 (platform.claude.com model-deprecations as quoted
  // by dev.to/flarecanary "Claude Opus 4 and Sonnet 4 retire June 15" and totalum.app, read 2026-11-29).
  "claude-opus-4-0": retiring(
    "anthropic",
    "2026-06-15",
    "claude-opus-4-8",
    "https://platform.claude.com/docs/en/about-claude/model-deprecations; https://dev.to/flarecanary/claude-opus-4-and-sonnet-4-retire-june-15-your-claude-opus-4-0-alias-is-about-to-start-failing-ej5",
    ["claude-opus-4-20250514"],
  ),
  "claude-sonnet-4-0": retiring(
    "anthropic",
    "2026-06-15",
    "claude-sonnet-4-6",
    "https://platform.claude.com/docs/en/about-claude/model-deprecations; https://www.totalum.app/blog/claude-4-deprecation-migration-2026",
    ["claude-sonnet-4-20250514"],
  ),
  // Retired 2026-08-05 (github.com/multidotdev/cli release v0.0.135: "retired by Anthropic on August 5,
  // 2026"; totalum.app: "its retirement date is August 5, 2026"). Replacement: the Opus line's newest.
  "claude-opus-4-1": {
    ...retiring(
      "anthropic",
      "2026-08-05",
      "claude-opus-5-5",
      "https://platform.claude.com/docs/en/about-claude/model-deprecations; https://github.com/multidotdev/cli/releases/tag/v0.0.135",
      ["claude-opus-4-1-20250805"],
    ),
  },
  "claude-haiku-4-5": {
    provider: "anthropic",
    source: CLAUDE_MODELS,
    asOf: "2026-11-23",
    aliases: ["claude-haiku-4-5-20251001"],
  },

  // ---- OpenAI ----
  // Released 2026-11-17; $8/$40, cached $0.40; none and minimal refused (litellm discussion #52347;
  // apidog.com/blog/gpt-6-2-astra-api quoting the model page, checked 2026-11-18).
  "gpt-6.2-astra": {
    ...OPENAI_REASONING,
    source: `${OPENAI_MODELS}/gpt-6.2-astra; ${OPENAI_PRICING}`,
    asOf: "2026-11-26",
    facts: {
      ...GPT_6_FACTS,
      name: "GPT-6.2 Astra",
      family: "gpt",
      price: gpt(8, 40, 0.4),
      releaseDate: "2026-11-17",
    },
    efforts: NO_NONE,
    modelDefault: "medium",
  },
  "gpt-6.2-sol": {
    ...OPENAI_REASONING,
    source: `${OPENAI_MODELS}/gpt-6.2-sol; ${OPENAI_PRICING}`,
    asOf: "2026-11-26",
    facts: {
      ...GPT_6_FACTS,
      name: "GPT-6.2 Sol",
      family: "gpt",
      price: gpt(2, 10, 0.1),
      releaseDate: "2026-11-17",
    },
    efforts: NO_NONE,
    modelDefault: "medium",
  },
  "gpt-6-astra": {
    ...OPENAI_REASONING,
    source: `${OPENAI_MODELS}/gpt-6-astra; ${OPENAI_PRICING}; developers.openai.com/api/docs/guides/latest-model`,
    asOf: "2026-11-23",
    facts: {
      ...GPT_6_FACTS,
      name: "GPT-6 Astra",
      family: "gpt",
      price: gpt(10, 50, 1),
      releaseDate: "2026-09-03",
    },
    efforts: NO_NONE,
    modelDefault: "medium",
  },
  "gpt-6.1-sol": {
    ...OPENAI_REASONING,
    source: `${OPENAI_MODELS}/gpt-6.1-sol; ${OPENAI_PRICING}`,
    asOf: "2026-11-23",
    facts: { ...GPT_6_FACTS, name: "GPT-6.1 Sol", family: "gpt", price: gpt(2, 10, 0.1) },
    efforts: NO_NONE,
    modelDefault: "medium",
  },
  "gpt-6.1-terra": {
    ...OPENAI_REASONING,
    source: `${OPENAI_MODELS}/gpt-6.1-terra; ${OPENAI_PRICING}`,
    asOf: "2026-11-23",
    facts: { ...GPT_6_FACTS, name: "GPT-6.1 Terra", family: "gpt", price: gpt(1, 5, 0.05) },
    efforts: WITH_NONE,
    modelDefault: "medium",
  },
  // `minimal` is refused by every GPT-6 model. `none` is taken: OpenAI's own 400 for gpt-6-sol tells the
  // caller to "set reasoning_effort to 'none'" (onyx-dot-app/onyx#15008), and coder/xum#4259 records that
  // Sol and Luna take function tools on Chat Completions only with `reasoning_effort: "none"`.
  "gpt-6-sol": {
    ...OPENAI_REASONING,
    source: `${OPENAI_MODELS}/gpt-6-sol; ${OPENAI_PRICING}`,
    asOf: "2026-11-23",
    facts: { ...GPT_6_FACTS, name: "GPT-6 Sol", family: "gpt", price: gpt(2, 10, 0.2) },
    efforts: WITH_NONE,
    modelDefault: "medium",
  },
  "gpt-6-luna": {
    ...OPENAI_REASONING,
    source: `${OPENAI_MODELS}/gpt-6-luna; ${OPENAI_PRICING}`,
    asOf: "2026-11-23",
    facts: { ...GPT_6_FACTS, name: "GPT-6 Luna", family: "gpt", price: gpt(0.1, 0.5, 0.01) },
    efforts: WITH_NONE,
    modelDefault: "medium",
  },
  // List price $5/$30/$0.50; promotion $4/$20/$0.40 "available at least through November 21, 2026"
  // (OpenAI's model page developers.openai.com/{pt-BR,ja-JP}/api/docs/models/gpt-5.6-sol, read
  // 2026-11-29; gramext/dist v0.1.0: the cut "turned out to be a temporary OpenAI promotion ... reverted
  // to its $5.00/$30.00 list price"). A later models.dev file's $2/$10/$0.20/$2.50 is not confirmed by
  // any OpenAI page search found, so the cited list price stands (and a refresh cannot lower it:
  // merge.ts). Accepted efforts from OpenAI's 400: "Supported values are: 'none', 'low', 'medium',
  // 'high', 'xhigh', and 'max'" (the same model page lists the same six).
  "gpt-5.6-sol": {
    ...OPENAI_REASONING,
    source: `${OPENAI_MODELS}/gpt-5.6-sol; ${OPENAI_PRICING}`,
    asOf: "2026-11-26",
    facts: {
      ...GPT_6_FACTS,
      name: "GPT-5.6 Sol",
      family: "gpt",
      price: gpt(5, 30, 0.5),
      releaseDate: "2026-07-09",
    },
    scheduled: [{ until: "2026-11-21", price: { input: 4, output: 20, cacheRead: 0.4, cacheWrite: 5 } }],
    efforts: WITH_NONE,
    modelDefault: "medium",
    aliases: ["gpt-5.6"],
  },
  "gpt-5.6-terra": {
    ...OPENAI_REASONING,
    source: `${OPENAI_MODELS}/gpt-5.6-terra; ${OPENAI_PRICING}`,
    asOf: "2026-11-23",
    facts: {
      ...GPT_6_FACTS,
      name: "GPT-5.6 Terra",
      family: "gpt",
      price: gpt(2, 12, 0.2),
      releaseDate: "2026-07-09",
    },
    efforts: WITH_NONE,
    modelDefault: "medium",
  },
  "gpt-5.6-luna": {
    ...OPENAI_REASONING,
    source: `${OPENAI_MODELS}/gpt-5.6-luna; ${OPENAI_PRICING}`,
    asOf: "2026-11-23",
    facts: {
      ...GPT_6_FACTS,
      name: "GPT-5.6 Luna",
      family: "gpt",
      price: gpt(0.2, 1.2, 0.02),
      releaseDate: "2026-07-09",
    },
    efforts: WITH_NONE,
    modelDefault: "medium",
  },
  "gpt-5.4-mini": { ...OPENAI_REASONING, source: `${OPENAI_MODELS}/gpt-5.4-mini`, asOf: "2026-11-23" },
  // 2026-10-14 notice: GPT-4o (gpt-4o-2024-08-06, gpt-4o-2024-11-20), GPT-4o mini
  // (gpt-4o-mini-2024-07-18), GPT-4.1 (gpt-4.1-2025-04-14) and GPT-4.1 mini (gpt-4.1-mini-2025-04-14)
  // shut down 2027-01-14, replacement gpt-6-luna (OpenAI deprecations page as copied by
  // w3cschool.cn/openai_api/openai_api-docs-deprecations.html; codersera.com, read 2026-11-29).
  "gpt-4o": {
    provider: "openai",
    source: OPENAI_DEPRECATIONS,
    asOf: "2026-11-29",
    retires: "2027-01-14",
    replacement: "gpt-6-luna",
  },
  "gpt-4o-mini": {
    provider: "openai",
    source: OPENAI_DEPRECATIONS,
    asOf: "2026-11-29",
    retires: "2027-01-14",
    replacement: "gpt-6-luna",
    aliases: ["gpt-4o-mini-2024-07-18"],
  },
  "gpt-4o-2024-08-06": retiring("openai", "2027-01-14", "gpt-6-luna", OPENAI_DEPRECATIONS),
  "gpt-4o-2024-11-20": retiring("openai", "2027-01-14", "gpt-6-luna", OPENAI_DEPRECATIONS),
  "gpt-4.1": retiring("openai", "2027-01-14", "gpt-6-luna", OPENAI_DEPRECATIONS, ["gpt-4.1-2025-04-14"]),
  "gpt-4.1-mini": retiring("openai", "2027-01-14", "gpt-6-luna", OPENAI_DEPRECATIONS, [
    "gpt-4.1-mini-2025-04-14",
  ]),
  // 2026-06-11 notice: gpt-5, gpt-5-mini, gpt-5-nano, gpt-5-pro, o3, o3-pro and their snapshots shut down
  // 2026-12-11. OpenAI's page (developers.openai.com/api/docs/deprecations, zh-Hans fallback, read
  // 2026-11-29) names gpt-6.1-sol for gpt-5 and gpt-6.1-terra for gpt-5-mini; the rest of its rows were cut
  // off in what search returned, so gpt-5-nano -> gpt-6-luna, gpt-5-pro/o3/o3-pro -> gpt-6.1-sol follow
  // the same lines (dev.to/aideprecations lists the 5.6 models instead: an older copy).
  "gpt-5": retiring("openai", "2026-12-11", "gpt-6.1-sol", OPENAI_DEPRECATIONS, ["gpt-5-2025-08-07"]),
  "gpt-5-mini": retiring("openai", "2026-12-11", "gpt-6.1-terra", OPENAI_DEPRECATIONS, [
    "gpt-5-mini-2025-08-07",
  ]),
  "gpt-5-nano": retiring("openai", "2026-12-11", "gpt-6-luna", OPENAI_DEPRECATIONS, [
    "gpt-5-nano-2025-08-07",
  ]),
  "gpt-5-pro": retiring("openai", "2026-12-11", "gpt-6.1-sol", OPENAI_DEPRECATIONS, ["gpt-5-pro-2025-10-06"]),
  o3: retiring("openai", "2026-12-11", "gpt-6.1-sol", OPENAI_DEPRECATIONS, ["o3-2025-04-16"]),
  "o3-pro": retiring("openai", "2026-12-11", "gpt-6.1-sol", OPENAI_DEPRECATIONS, ["o3-pro-2025-06-10"]),
  // Shut down 2026-10-23 (OpenAI deprecations page as of 2026-10-15, quoted by
  // dev.to/importstatic "Every OpenAI model shutdown date until January 2027" and
  // apify.com/fifty50labs/llm-model-sunset-scanner, read 2026-11-29), with the replacements listed there.
  "gpt-3.5-turbo": retiring("openai", "2026-10-23", "gpt-5.6-terra", OPENAI_DEPRECATIONS, [
    "gpt-3.5-turbo-0125",
  ]),
  "gpt-4": retiring("openai", "2026-10-23", "gpt-5.6-sol", OPENAI_DEPRECATIONS, ["gpt-4-0613"]),
  "gpt-4-turbo": retiring("openai", "2026-10-23", "gpt-5.6-sol", OPENAI_DEPRECATIONS, [
    "gpt-4-turbo-2024-04-09",
  ]),
  o1: retiring("openai", "2026-10-23", "gpt-5.6-sol", OPENAI_DEPRECATIONS, ["o1-2024-12-17"]),
  "o1-pro": retiring("openai", "2026-10-23", "gpt-5.6-sol", OPENAI_DEPRECATIONS, ["o1-pro-2025-03-19"]),
  "o3-mini": retiring("openai", "2026-10-23", "gpt-5.6-sol", OPENAI_DEPRECATIONS, ["o3-mini-2025-01-31"]),
  "o4-mini": retiring("openai", "2026-10-23", "gpt-5.6-terra", OPENAI_DEPRECATIONS, ["o4-mini-2025-04-16"]),
  // Its replacement was cut off in what search returned; Retell (docs.retellai.com deprecation notice
  // 2026-10-20) moved it to gpt-5.6-luna.
  "gpt-4.1-nano": retiring("openai", "2026-10-23", "gpt-5.6-luna", OPENAI_DEPRECATIONS, [
    "gpt-4.1-nano-2025-04-14",
  ]),
  // Earlier Codex models shut down 2026-07-23, replacement gpt-5.3-codex (chatforest.com "GPT-5.3-Codex
  // ... July 23 deprecations", read 2026-11-29). Not confirmed on OpenAI's own page by search.
  "gpt-5-codex": retiring("openai", "2026-07-23", "gpt-5.3-codex", OPENAI_DEPRECATIONS),
  "gpt-5.1-codex": retiring("openai", "2026-07-23", "gpt-5.3-codex", OPENAI_DEPRECATIONS),
  "gpt-5.1-codex-max": retiring("openai", "2026-07-23", "gpt-5.3-codex", OPENAI_DEPRECATIONS),
  "gpt-5.1-codex-mini": retiring("openai", "2026-07-23", "gpt-5.3-codex", OPENAI_DEPRECATIONS),
  "gpt-5.2-codex": retiring("openai", "2026-07-23", "gpt-5.3-codex", OPENAI_DEPRECATIONS),
  // gpt-5.2-chat-latest and gpt-5.3-chat-latest shut down 2026-08-10 (github.com/Yesol-Pilot/
  // neosignal-community discussion #2, read 2026-11-29); gpt-5-chat-latest and gpt-5.1-chat-latest are
  // gone from the catalogues watched there with no published date (discussions #4, #5): marked deprecated
  // without a date (search confirmed none). Replacement: the Sol line's newest.
  "gpt-5.2-chat-latest": retiring("openai", "2026-08-10", "gpt-6.2-sol", OPENAI_DEPRECATIONS),
  "gpt-5.3-chat-latest": retiring("openai", "2026-08-10", "gpt-6.2-sol", OPENAI_DEPRECATIONS),
  "gpt-5-chat-latest": {
    provider: "openai",
    source: "https://github.com/Yesol-Pilot/neosignal-community/discussions/4",
    asOf: "2026-11-29",
    status: "deprecated",
    replacement: "gpt-6.2-sol",
  },
  "gpt-5.1-chat-latest": {
    provider: "openai",
    source: "https://github.com/Yesol-Pilot/neosignal-community/discussions/4",
    asOf: "2026-11-29",
    status: "deprecated",
    replacement: "gpt-6.2-sol",
  },
  // Shut down 2026-10-23: its own entry, never mapped to the live gpt-4o.
  "gpt-4o-2024-05-13": {
    provider: "openai",
    source: OPENAI_DEPRECATIONS,
    asOf: "2026-11-26",
    status: "deprecated",
    retires: "2026-10-23",
    replacement: "gpt-5.6-sol",
  },

  // ---- Gemini ----
  // GA 2026-11-10. Google's frontier model: "Google's strongest reasoning model" (replicate.com/google/
  // gemini-4-carbon; apidog.com/blog/gemini-4-carbon-api: "Google describes Carbon as its most capable
  // reasoning model ... Gemini 4 Argon stays the default for everyday work"), so `best` takes it first.
  // Price $2/$10 through 2026-11-30, $4/$20 from 2026-12-01 (litellm discussion #50970 "Same price as
  // Argon", docs.laozhang.ai announcement gemini-4-carbon-2026-11); cache reads $0.10 at launch
  // (docs.apiyi.com gemini-4-carbon overview), $0.20 after by Argon's rule (not confirmed by search).
  // Unified 1,048,576-token limit, 65,536 output tokens per streamed segment, thinking levels LOW, MEDIUM
  // (default), HIGH (docs.cloud.google.com/gemini-enterprise-agent-platform/models/gemini/4-carbon).
  "gemini-4-carbon": {
    ...GEMINI_3,
    source: `${GEMINI_MODELS}#gemini-4-carbon; ${GEMINI_PRICING}; https://docs.cloud.google.com/gemini-enterprise-agent-platform/models/gemini/4-carbon; https://github.com/BerriAI/litellm/discussions/50970`,
    asOf: "2026-11-29",
    facts: {
      ...GEMINI_3_FACTS,
      name: "Gemini 4 Carbon",
      family: "gemini-pro",
      price: gemini(4, 20, 0.2),
      releaseDate: "2026-11-10",
    },
    scheduled: [{ until: "2026-11-30", price: gemini(2, 10, 0.1) }],
    efforts: ["low", "medium", "high"],
    modelDefault: "medium",
  },
  // Released 2026-09-30; launch price $2/$10/$0.10 through 2026-11-30, $4/$20/$0.20 from 2026-12-01;
  // thinking levels low, medium, high (no thinking budget) (litellm discussion #46238, TokenMeter v0.13.1).
  "gemini-4-argon": {
    ...GEMINI_3,
    source: `${GEMINI_MODELS}#gemini-4-argon; ${GEMINI_PRICING}; https://docs.cloud.google.com/gemini-enterprise-agent-platform/models/start/get-started-with-gemini-4`,
    asOf: "2026-11-26",
    facts: {
      ...GEMINI_3_FACTS,
      name: "Gemini 4 Argon",
      family: "gemini-pro",
      price: gemini(4, 20, 0.2),
      releaseDate: "2026-09-30",
    },
    scheduled: [{ until: "2026-11-30", price: gemini(2, 10, 0.1) }],
    efforts: ["low", "medium", "high"],
  },
  // Released 2026-11-18, the middle Gemini 4 model; $3/$15, cached $0.15, flat over the window; thinking
  // levels low, medium, high (default), xhigh (apidog.com/blog/gemini-4-neon-api; TokenMeter v0.17.0).
  "gemini-4-neon": {
    ...GEMINI_3,
    source: `${GEMINI_MODELS}#gemini-4-neon; ${GEMINI_PRICING}`,
    asOf: "2026-11-26",
    facts: {
      ...GEMINI_3_FACTS,
      name: "Gemini 4 Neon",
      family: "gemini-neon",
      price: gemini(3, 15, 0.15),
      releaseDate: "2026-11-18",
    },
    efforts: ["low", "medium", "high", "xhigh"],
    modelDefault: "high",
  },
  // The lowest-priced Gemini 4 model: $1.50/$7.50, cached $0.075, flat; thinking levels low, medium,
  // high (default), xhigh (litellm discussion #51436; TokenMeter v0.17.0).
  "gemini-4-hydrogen": {
    ...GEMINI_3,
    source: `${GEMINI_MODELS}#gemini-4-hydrogen; ${GEMINI_PRICING}`,
    asOf: "2026-11-26",
    facts: {
      ...GEMINI_3_FACTS,
      name: "Gemini 4 Hydrogen",
      family: "gemini-hydrogen",
      price: gemini(1.5, 7.5, 0.075),
      releaseDate: "2026-11-18",
    },
    efforts: ["low", "medium", "high", "xhigh"],
    modelDefault: "high",
  },
  // Launch price through 2026-12-31; $1.50/$7.50 from 2027-01-01 (pricing page).
  "gemini-3.8-flash": {
    ...GEMINI_3,
    source: GEMINI_PRICING,
    asOf: "2026-11-23",
    facts: {
      ...GEMINI_3_FACTS,
      name: "Gemini 3.8 Flash",
      family: "gemini-flash",
      price: gemini(1.5, 7.5, 0.15),
    },
    scheduled: [{ until: "2026-12-31", price: gemini(0.75, 3.75, 0.075) }],
    efforts: ["low", "medium", "high"],
  },
  "gemini-3.5-flash": {
    ...GEMINI_3,
    source: `${GEMINI_PRICING}; docs.cloud.google.com/vertex-ai/generative-ai/docs/thinking`,
    asOf: "2026-11-23",
    efforts: ["minimal", "low", "medium", "high"],
  },
  // Its own default is MINIMAL, which Google says may end multi-step tool use early; agents need MEDIUM+.
  "gemini-3.5-flash-lite": {
    ...GEMINI_3,
    source: `${GEMINI_PRICING}; docs.cloud.google.com/vertex-ai/generative-ai/docs/models/gemini/3-5-flash-lite`,
    asOf: "2026-11-23",
    facts: {
      ...GEMINI_3_FACTS,
      name: "Gemini 3.5 Flash-Lite",
      family: "gemini-flash-lite",
      price: gemini(0.3, 2.5, 0.03),
    },
    efforts: ["minimal", "low", "medium", "high"],
    defaultEffort: "medium",
  },
  "gemini-3.1-pro-preview": {
    ...GEMINI_3,
    source: GEMINI_PRICING,
    asOf: "2026-11-23",
    efforts: ["low", "medium", "high"],
  },
  "gemini-3-flash-preview": {
    ...GEMINI_3,
    source: GEMINI_PRICING,
    asOf: "2026-11-23",
    efforts: ["minimal", "low", "medium", "high"],
  },
  // Shut down 2026-12-01; Google names gemini-3.8-flash for 2.5 Pro and gemini-3.5-flash-lite for 2.5
  // Flash (ai.google.dev/gemini-api/docs/deprecations read 2026-11-10, quoted by dev.to/aideprecations
  // "What to Do Before Gemini 2.5 Pro and 2.5 Flash Are Retired on December 1, 2026"). The same copy says
  // gemini-2.5-flash-lite "is not deprecated and remains available through the API until further notice":
  // the audit's "closed to new users" is not confirmed, so it carries no date.
  "gemini-2.5-pro": {
    ...GEMINI_3,
    source: "https://ai.google.dev/gemini-api/docs/deprecations",
    asOf: "2026-11-29",
    status: "deprecated",
    retires: "2026-12-01",
    replacement: "gemini-3.8-flash",
  },
  "gemini-2.5-flash": {
    ...GEMINI_3,
    source: "https://ai.google.dev/gemini-api/docs/deprecations",
    asOf: "2026-11-29",
    status: "deprecated",
    retires: "2026-12-01",
    replacement: "gemini-3.5-flash-lite",
  },
  // Shut down 2026-03-09 (ai.google.dev/gemini-api/docs/deprecations).
  "gemini-3-pro-preview": {
    ...GEMINI_3,
    source: "https://ai.google.dev/gemini-api/docs/deprecations",
    asOf: "2026-11-23",
    status: "deprecated",
    retires: "2026-03-09",
    replacement: "gemini-4-argon",
  },
};
