/**
 * Entry point of the provider layer: a provider instance's config in, a guarded stream function out.
 * Retries are added on top with `withRetry` (src/llm/retry.ts); model resolution and fallback live above.
 */
import type { ProviderKind } from "../kernel/conversation/messages.ts";
import type { StreamFn, WireProtocol } from "../kernel/conversation/stream.ts";
import type { AdapterOptions } from "./adapters/adapter.ts";
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
  /** An OpenAI-compatible server declared in config (spoken to over Chat Completions). */
  compatible?: boolean;
  /** A compatible endpoint known to be Ollama (see AdapterOptions.server). */
  server?: "ollama";
}

/** How a provider instance is called: the official OpenAI endpoint over Responses, OpenAI-compatible
 * servers over Chat Completions (DESIGN "Providers are pure clients"). */
export function wireProtocol(config: Pick<ProviderConfig, "kind" | "compatible">): WireProtocol {
  if (config.kind === "anthropic") return "anthropic-messages";
  if (config.kind === "gemini") return "gemini";
  return config.compatible ? "openai-chat" : "openai-responses";
}

/** Each wire adapter's module, imported on the first request of a provider that speaks it: a run that
 * talks to one provider loads one adapter (and, inside it, one SDK). */
const ADAPTERS: Record<WireProtocol, () => Promise<(options: AdapterOptions) => StreamFn>> = {
  "anthropic-messages": async () => (await import("./adapters/anthropic.ts")).anthropicStream,
  "openai-responses": async () => (await import("./adapters/openai-responses.ts")).openaiResponsesStream,
  "openai-chat": async () => (await import("./adapters/openai.ts")).openaiStream,
  gemini: async () => (await import("./adapters/gemini.ts")).geminiStream,
};

/** A stream function whose adapter is created on its first request (the import is our own bundled
 * module; a failure there would be a broken build, which the stream guard reports as an error event). */
function lazyAdapter(protocol: WireProtocol, options: AdapterOptions): StreamFn {
  let adapter: Promise<StreamFn> | undefined;
  return async function* (request) {
    adapter ??= ADAPTERS[protocol]().then((make) => make(options));
    yield* (await adapter)(request);
  };
}

/** The stream function of a provider instance: its wire adapter behind the stream guard. The adapter
 * and its SDK are imported only when the first request runs. */
export function createProviderStream(config: ProviderConfig): StreamFn {
  const options: AdapterOptions = { name: config.name, apiKey: config.apiKey };
  if (config.baseUrl !== undefined) options.baseUrl = config.baseUrl;
  if (config.sendReasoningContent) options.sendReasoningContent = true;
  if (config.server) options.server = config.server;
  const adapter = lazyAdapter(wireProtocol(config), options);
  const guard: { idleTimeoutMs?: number; providerName: string } = { providerName: config.name };
  if (config.idleTimeoutMs !== undefined) guard.idleTimeoutMs = config.idleTimeoutMs;
  return withStreamGuard(adapter, guard);
}
