/**
 * Our own facts on top of models.dev: what it lacks (accepted efforts, protocol quirks, prefix checks,
 * retirement dates, time-limited prices) and every model released after the snapshot (2026-07-02).
 * Each entry cites the page it came from (read 2026-11-23..26).
 *
 * After any change here run `bun scripts/catalog-merged.ts` (premerged.ts says why).
 *
 * Merge rule (src/llm/catalog/merge.ts): `facts` (limits, prices, dates) apply only when models.dev has
 * no entry for the id or the models.dev data (snapshot commit or refresh day) predates the override's
 * `asOf`, so a refresh by a user online supersedes them; everything else (efforts, quirks, retirement,
 * schedules) always applies.
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

const K = 1_000;
const M = 1_000_000;

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
  "claude-opus-4-5": {
    provider: "anthropic",
    source: CLAUDE_MODELS,
    asOf: "2026-11-23",
    aliases: ["claude-opus-4-5-20251101"],
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
  // `minimal` is refused by every GPT-6 model; whether gpt-6-sol takes `none` is not documented, so
  // it is never sent (rounded up to low).
  "gpt-6-sol": {
    ...OPENAI_REASONING,
    source: `${OPENAI_MODELS}/gpt-6-sol; ${OPENAI_PRICING}`,
    asOf: "2026-11-23",
    facts: { ...GPT_6_FACTS, name: "GPT-6 Sol", family: "gpt", price: gpt(2, 10, 0.2) },
    efforts: NO_NONE,
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
  // List price $5/$30/$0.50; promotion $4/$20/$0.40 guaranteed through 2026-11-21 (PromptFuel v1.0.17 and
  // gramext/dist v0.1.0 quoting OpenAI's pricing page). Accepted efforts from OpenAI's 400: "Supported
  // values are: 'none', 'low', 'medium', 'high', 'xhigh', and 'max'" (issue 20).
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
  "gpt-4o": {
    provider: "openai",
    source: OPENAI_DEPRECATIONS,
    asOf: "2026-11-26",
    retires: "2027-01-14",
    replacement: "gpt-6-luna",
  },
  "gpt-4o-mini": {
    provider: "openai",
    source: OPENAI_DEPRECATIONS,
    asOf: "2026-11-26",
    retires: "2027-01-14",
    replacement: "gpt-6-luna",
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
  // Retired in 2026 (ai.google.dev/gemini-api/docs/deprecations); models.dev still lists them.
  "gemini-2.5-pro": {
    ...GEMINI_3,
    source: "https://ai.google.dev/gemini-api/docs/deprecations",
    asOf: "2026-11-23",
    status: "deprecated",
    replacement: "gemini-4-argon",
  },
  "gemini-2.5-flash": {
    ...GEMINI_3,
    source: "https://ai.google.dev/gemini-api/docs/deprecations",
    asOf: "2026-11-23",
    status: "deprecated",
    replacement: "gemini-3.8-flash",
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
