/**
 * Entry point of the provider layer: a provider instance's config in, a guarded stream function out.
 * Retries are added on top with `withRetry` (src/llm/retry.ts); model resolution and fallback live above.
 */
import type { ProviderKind } from "../kernel/messages.ts";
import type { StreamFn } from "../kernel/stream.ts";
import type { AdapterOptions } from "./adapter.ts";
import { anthropicStream } from "./anthropic.ts";
import { geminiStream } from "./gemini.ts";
import { openaiStream } from "./openai.ts";
import { withStreamGuard } from "./stream-guard.ts";

/** One provider instance: which wire protocol, its name, key and endpoint. */
export interface ProviderConfig {
  kind: ProviderKind;
  /** Instance name shown in messages ("anthropic", "openai", "gemini", or e.g. "ollama"). */
  name: string;
  apiKey: string;
  /** Endpoint; when absent the SDK default applies (ANTHROPIC_BASE_URL / OPENAI_BASE_URL are read by the
   * SDKs, GOOGLE_GEMINI_BASE_URL by the Gemini adapter). */
  baseUrl?: string;
  /** Idle limit between stream events (default 60 s). */
  idleTimeoutMs?: number;
  /** Chat Completions: send reasoning back as `reasoning_content` (see AdapterOptions). */
  sendReasoningContent?: boolean;
}

/** The stream function of a provider instance: its wire adapter behind the stream guard. The SDK is
 * imported only when the first request runs. */
export function createProviderStream(config: ProviderConfig): StreamFn {
  const options: AdapterOptions = { name: config.name, apiKey: config.apiKey };
  if (config.baseUrl !== undefined) options.baseUrl = config.baseUrl;
  if (config.sendReasoningContent) options.sendReasoningContent = true;
  const adapter =
    config.kind === "anthropic"
      ? anthropicStream(options)
      : config.kind === "openai"
        ? openaiStream(options)
        : geminiStream(options);
  const guard: { idleTimeoutMs?: number; providerName: string } = { providerName: config.name };
  if (config.idleTimeoutMs !== undefined) guard.idleTimeoutMs = config.idleTimeoutMs;
  return withStreamGuard(adapter, guard);
}
