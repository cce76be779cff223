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

/**
 * Runs an adapter body: events pass through; a throw becomes one `error` event carrying the partial
 * message; a body that ends without a terminal event becomes a `truncated` error.
 */
export async function* runGuarded(
  ctx: ErrorContext,
  request: ModelRequest,
  builder: MessageBuilder,
  body: () => AsyncGenerator<StreamEvent>,
  httpFacts: () => Parameters<typeof classifyError>[3] = () => ({}),
): AsyncGenerator<StreamEvent> {
  try {
    for await (const event of body()) {
      yield event;
      if (event.type === "done" || event.type === "error") return;
    }
    yield {
      type: "error",
      error: makeProviderError(ctx, "truncated", "the stream ended without its final event"),
      partial: builder.message(),
    };
  } catch (err) {
    yield {
      type: "error",
      error: namingEffortSetting(classifyError(ctx, err, request.signal, httpFacts()), request),
      partial: builder.message(),
    };
  }
}
