/**
 * What every wire adapter shares: its options, the error context, and the wrapper that turns anything
 * thrown into the terminal error event (a stream function never throws once called).
 */
import type OpenAI from "openai";
import type { ProviderKind } from "../../kernel/conversation/messages.ts";
import type { ModelRequest, StreamEvent } from "../../kernel/conversation/stream.ts";
import { classifyError, type ErrorContext, makeProviderError, namingEffortSetting } from "../errors.ts";
import type { MessageBuilder } from "./message-builder.ts";

/** Connection settings of one provider instance. */
export interface AdapterOptions {
  /** Instance name shown in messages ("anthropic", "openai", "ollama"). */
  name: string;
  apiKey: string;
  /** Endpoint override; when absent the SDK default (and its own environment variable) applies. */
  baseUrl?: string;
  /** Chat Completions: send reasoning back as `reasoning_content` on assistant turns (DeepSeek-style
   * servers require it; config `send_reasoning_content: true`). */
  sendReasoningContent?: boolean;
  /** What kind of server a compatible endpoint is, when known: `ollama` has its own reasoning values. */
  server?: "ollama";
}

/** The official `openai` SDK client of one provider instance, imported and built on first use, with the
 * SDK's own retries off (retries live in retry.ts). Shared by the Responses and Chat Completions adapters. */
export function lazyOpenAiClient(options: AdapterOptions): () => Promise<OpenAI> {
  let client: Promise<OpenAI> | undefined;
  return () => {
    client ??= import("openai").then(
      ({ default: Sdk }) =>
        new Sdk({
          apiKey: options.apiKey,
          maxRetries: 0,
          ...(options.baseUrl ? { baseURL: options.baseUrl } : {}),
        }),
    );
    return client;
  };
}

export function errorContext(
  kind: ProviderKind,
  options: AdapterOptions,
  request: ModelRequest,
): ErrorContext {
  return { provider: kind, providerName: options.name, model: request.model.id, apiKey: options.apiKey };
}

/** The variable (or config field) that points a provider's requests at a server. */
const BASE_URL_SETTING: Readonly<Record<string, string>> = {
  anthropic: "ANTHROPIC_BASE_URL",
  openai: "OPENAI_BASE_URL (with its /v1)",
  gemini: "GOOGLE_GEMINI_BASE_URL",
  ollama: "OLLAMA_HOST",
};

/** Where to look when a server answered without a single stream event: probably not the provider's API. */
function baseUrlHint(ctx: ErrorContext): string {
  const setting =
    ctx.providerName === ctx.provider || ctx.providerName === "ollama"
      ? BASE_URL_SETTING[ctx.providerName]
      : `providers.${ctx.providerName}.base_url in config`;
  return `is the server at the base URL the provider's API? Check ${setting ?? "the base URL"}`;
}

/**
 * Runs an adapter body: events pass through; a throw becomes one `error` event carrying the partial
 * message; a body that ends without a terminal event becomes a `truncated` error, or, when not one
 * event came (a server that is no such API answers `200 {}`, which an SDK reads as an empty stream:
 * @anthropic-ai/sdk 1.12 src/core/streaming.ts fromSSEResponse skips every message without an `event:`
 * line, and the body has none), an `unknown` one naming the base URL setting: retrying cannot help.
 */
export async function* runGuarded(
  ctx: ErrorContext,
  request: ModelRequest,
  builder: MessageBuilder,
  body: () => AsyncGenerator<StreamEvent>,
  httpFacts: () => Parameters<typeof classifyError>[3] = () => ({}),
): AsyncGenerator<StreamEvent> {
  let seen = false;
  try {
    for await (const event of body()) {
      seen = true;
      yield event;
      if (event.type === "done" || event.type === "error") return;
    }
    const error = seen
      ? makeProviderError(ctx, "truncated", "the stream ended without its final event")
      : makeProviderError(
          ctx,
          "unknown",
          `the server answered without a stream of events; ${baseUrlHint(ctx)}`,
        );
    yield { type: "error", error, partial: builder.message() };
  } catch (err) {
    const error = namingEffortSetting(classifyError(ctx, err, request.signal, httpFacts()), request);
    // A reply the SDK could not read as a stream at all (Gemini: "Incomplete JSON segment at the end").
    if (!seen && error.kind === "unknown") error.message = `${error.message}; ${baseUrlHint(ctx)}`;
    yield { type: "error", error, partial: builder.message() };
  }
}
