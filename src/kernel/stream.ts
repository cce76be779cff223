import type { ProviderError } from "./errors.ts";
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
  maxOutputTokens: number;
  /** USD per million tokens. */
  price: ModelPrice;
  /**
   * A prompt-length price tier: a request whose prompt (input + cache reads + cache writes) exceeds
   * `above` tokens is billed at `price` on every token of that request (Gemini Pro, Claude Haiku 5.5).
   */
  longContext?: { above: number; price: ModelPrice };
  known: boolean;
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
  signal?: AbortSignal;
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
