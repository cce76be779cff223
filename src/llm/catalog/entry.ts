/**
 * The catalog's merged entry for one model: models.dev facts (snapshot or cached refresh) with our
 * overrides applied. A leaf module: the store, tiers and facade import it, it imports only kernel types.
 */
import type { ModelPrice, ProviderKind, ReasoningEffort } from "../../kernel/index.ts";

/** A price that holds until a day (inclusive), then gives way to the entry's list price. */
export interface ScheduledPrice {
  /** Last day (YYYY-MM-DD, UTC) the price applies. */
  until: string;
  price: ModelPrice;
  longContext?: { above: number; price: ModelPrice };
}

export interface CatalogEntry {
  id: string;
  provider: ProviderKind;
  name: string;
  /** models.dev family (`claude-sonnet`, `gpt`, `gemini-pro`, ...), when known. */
  family?: string;
  contextWindow: number;
  /** Maximum input tokens, when the provider states one below the window (models.dev `limit.input`). */
  maxInputTokens?: number;
  maxOutputTokens: number;
  /** List price, USD per million tokens. */
  price: ModelPrice;
  /** Prompt-length tier (see ModelInfo.longContext). */
  longContext?: { above: number; price: ModelPrice };
  /** No plausible price is known (models.dev lists none, or zero): budgets count the conservative default. */
  priceUnknown?: boolean;
  /** Not a chat model (embeddings, speech, image generation): listed only with `agent models --all`. */
  nonChat?: boolean;
  /** Time-limited prices (promotions, launch prices), earliest first; each expires by itself. */
  scheduled?: ScheduledPrice[];
  reasoning: boolean;
  /** Accepted reasoning efforts, weakest first; absent: none is known (nothing is sent unless the user set one). */
  efforts?: readonly ReasoningEffort[];
  /** The effort we send when the request names none. */
  defaultEffort?: ReasoningEffort;
  /** The effort the model runs at when none is sent. */
  modelDefault?: ReasoningEffort;
  /** Anthropic: `thinking: {type: "adaptive"}` (Claude 5 family). */
  adaptiveThinking?: boolean;
  /** Anthropic: thinking is off unless asked, so adaptive thinking is sent only with a requested effort
   * (Claude Opus 4.6-4.8, Sonnet 4.6). */
  thinkingOptIn?: boolean;
  /** Anthropic: the API runs the thinking prefix check, so `block_binding` (and its beta) may be sent. */
  prefixCheck?: boolean;
  /** False when the API ignores or refuses `temperature`. */
  temperature?: boolean;
  /** OpenAI Responses: `reasoning.summary` may be requested. */
  reasoningSummary?: boolean;
  toolCall: boolean;
  releaseDate?: string;
  lastUpdated?: string;
  knowledge?: string;
  /** alpha/beta/deprecated (models.dev), or preview (id or override). */
  status?: "alpha" | "beta" | "deprecated" | "preview";
  /** Only some organizations may call it (e.g. Claude Mythos): never a default. */
  restricted?: boolean;
  /** Shutdown day (YYYY-MM-DD) and what the provider names as its replacement. */
  retires?: string;
  replacement?: string;
  /** Other ids for the same model (dated snapshots, aliases). */
  aliases?: readonly string[];
  /** Where the facts came from: "models.dev", "override", or both. */
  origin: "models.dev" | "override" | "models.dev+override";
  /** The override's cited page(s), when one applies. */
  source?: string;
}
