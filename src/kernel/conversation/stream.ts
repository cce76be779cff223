import type { ProviderError } from "../errors.ts";
import type { AssistantMessage, Message, ProviderKind, ToolCall } from "./messages.ts";
import type { ToolDefinition } from "./tools.ts";
import type { Usage } from "./usage.ts";

/** A model resolved to a concrete provider endpoint. */
export interface ModelRef {
  provider: ProviderKind;
  /** Provider instance name: "anthropic", "openai", "gemini", or an openai-compatible name ("ollama"). */
  providerName: string;
  id: string;
  /** Next candidates of the same tier, tried in order on overload or exhausted quota. */
  fallbacks?: ModelRef[];
  /** Reasoning effort config sets for the tier this ref was resolved from (`reasoning_effort:`). */
  reasoningEffort?: ReasoningEffort;
}

/**
 * What a model is, independent of how it is called: decides what it is offered (OpenAI GPT models get
 * `apply_patch`, every other family `edit_file`) and which reasoning settings apply.
 * - `gpt`: OpenAI's own models on the official endpoint; `open`: whatever an OpenAI-compatible server
 *   (Ollama, LM Studio, vLLM, llama.cpp) serves.
 */
export type ModelFamily = "claude" | "gpt" | "gemini" | "open";

/**
 * How a model is called: the official OpenAI endpoint speaks Responses (its current reasoning models
 * refuse function tools on Chat Completions), OpenAI-compatible servers speak Chat Completions.
 */
export type WireProtocol = "anthropic-messages" | "openai-responses" | "openai-chat" | "gemini";

/** The family of a resolved model. OpenAI-compatible servers never carry the name "openai" (config
 * refuses it), so the official endpoint is the instance named "openai". */
export function modelFamily(ref: Pick<ModelRef, "provider" | "providerName">): ModelFamily {
  if (ref.provider === "anthropic") return "claude";
  if (ref.provider === "gemini") return "gemini";
  return ref.providerName === "openai" ? "gpt" : "open";
}

/** USD per million tokens, per billed bucket. */
export interface ModelPrice {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** Catalog facts about a model; unknown models get conservative defaults. */
export interface ModelInfo {
  id: string;
  provider: ProviderKind;
  contextWindow: number;
  /**
   * The most input tokens a request may carry, when the provider states a limit below the window
   * (GPT-5.4+ and GPT-6.x: 922,000 of 1,050,000). Compaction and the last-resort cut work from it
   * (inputLimit); absent, the window is the limit.
   */
  maxInputTokens?: number;
  maxOutputTokens: number;
  /** USD per million tokens. */
  price: ModelPrice;
  /**
   * A prompt-length price tier: a request whose prompt (input + cache reads + cache writes) exceeds
   * `above` tokens is billed at `price` on every token of that request (Gemini Pro, Claude Haiku 5.5).
   */
  longContext?: { above: number; price: ModelPrice };
  known: boolean;
  /** No price is known for the model: `price` is the conservative default, so budgets still count it. */
  priceEstimated?: boolean;
}

/** The most input tokens a request to the model may carry: its stated maximum input, else its window. */
export function inputLimit(info: Pick<ModelInfo, "contextWindow" | "maxInputTokens">): number {
  return info.maxInputTokens !== undefined && info.maxInputTokens < info.contextWindow
    ? info.maxInputTokens
    : info.contextWindow;
}

/** One model call, in normalized form. */
export interface ModelRequest {
  model: ModelRef;
  /** The stable system prompt (cached where the provider supports it). */
  system: string;
  messages: Message[];
  tools: ToolDefinition[];
  maxOutputTokens?: number;
  /** Reasoning effort for this call; absent means the model's catalog default. */
  reasoningEffort?: ReasoningEffort;
  temperature?: number;
  /**
   * A JSON schema the answer text must match (`--schema`). Each adapter maps it to the provider's own
   * structured-output field (Anthropic `output_config.format`, OpenAI Responses `text.format`, Chat
   * Completions `response_format`, Gemini `responseJsonSchema`); tool calls are not affected by it.
   */
  responseSchema?: ResponseSchema;
  /**
   * A key stable across one session's requests from one agent (e.g. `<session id>:<agent id>`), sent as
   * OpenAI's `prompt_cache_key` so requests sharing a prefix reach the same cache. Absent: the adapter
   * derives one from the stable prefix (system prompt and tool names).
   */
  cacheKey?: string;
  signal?: AbortSignal;
}

/** A named JSON schema for the answer; the name fits OpenAI's `^[a-zA-Z0-9_-]{1,64}$`. */
export interface ResponseSchema {
  name: string;
  schema: Record<string, unknown>;
}

/**
 * Normalized stop reasons; `rawStopReason` on the done event keeps the provider's own value.
 * - `max_tokens`: the output limit cut the answer (Anthropic `max_tokens`, OpenAI `length` /
 *   `incomplete_details.reason: max_output_tokens`, Gemini `MAX_TOKENS`).
 * - `pause`: the provider paused a long turn and expects the conversation re-sent to continue
 *   (Anthropic `pause_turn`).
 * - `context_window`: the input filled the model's context window (Anthropic
 *   `model_context_window_exceeded`).
 * - `malformed_call`: the model produced a tool call the provider could not parse (Gemini
 *   `MALFORMED_FUNCTION_CALL`).
 * - `refusal`: the model refused (Anthropic `refusal`, an OpenAI `refusal` part, content filters).
 */
export type StopReason =
  | "end"
  | "tool_calls"
  | "max_tokens"
  | "pause"
  | "context_window"
  | "malformed_call"
  | "refusal"
  | "none"
  | "other";

/**
 * How hard a reasoning model thinks, normalized across providers; each adapter maps it to its own
 * setting (OpenAI `reasoning.effort`, Anthropic `output_config.effort`/thinking, Gemini `thinkingLevel`)
 * and only to values the model accepts (the catalog lists them).
 */
export type ReasoningEffort = "none" | "minimal" | "low" | "medium" | "high" | "xhigh" | "max";

/** Every reasoning effort, lowest first (config and spec validation list these). */
export const REASONING_EFFORTS: readonly ReasoningEffort[] = [
  "none",
  "minimal",
  "low",
  "medium",
  "high",
  "xhigh",
  "max",
];

/**
 * Events a provider stream yields: start/delta/end keyed by index, then exactly one terminal event
 * (`done` or `error`). A stream function never throws once called.
 */
export type StreamEvent =
  | { type: "text_start"; index: number }
  | { type: "text_delta"; index: number; delta: string }
  | { type: "text_end"; index: number; text: string }
  | { type: "reasoning_delta"; index: number; delta: string }
  | { type: "tool_call_start"; index: number; id: string; name: string }
  | { type: "tool_call_delta"; index: number; delta: string }
  | { type: "tool_call_end"; index: number; call: ToolCall }
  | { type: "usage"; usage: Usage }
  /** Something the provider changed or reported about the request (e.g. a dropped thinking block). */
  | { type: "warning"; code: string; message: string }
  | {
      type: "done";
      stopReason: StopReason;
      /** The provider's raw stop reason (`end_turn`, `tool_calls`, `STOP`), or null when none came. */
      rawStopReason: string | null;
      message: AssistantMessage;
      usage: Usage;
      /** The model id the provider reports having used. */
      model: string;
      /** Set by the fallback chain (src/llm/fallback.ts) when a later candidate than the requested model
       * answered: that candidate (bills at its prices, and is the model a summary names). */
      servedBy?: ModelRef;
    }
  | {
      type: "error";
      error: ProviderError /** Whatever was received before the failure. */;
      partial?: AssistantMessage;
    };

export type TerminalEvent = Extract<StreamEvent, { type: "done" | "error" }>;

/** A provider stream function: pure client, never runs tools, never loops, never throws. */
export type StreamFn = (request: ModelRequest) => AsyncIterable<StreamEvent>;

/** Informational events a provider wrapper reports outside the stream (retries, fallbacks). */
export type ProviderNotice =
  | { type: "retry"; attempt: number; delayMs: number; error: ProviderError }
  | { type: "fallback"; from: ModelRef; to: ModelRef; error: ProviderError };
