/**
 * Gemini adapter on @google/genai (loaded on first use; it does not retry unless told to).
 * Handles whole `functionCall.args` and the streamed Vertex form (`partialArgs`/`willContinue`, which the
 * SDK passes through unchanged in `candidates[].content`); `thought: true` parts become reasoning;
 * thought signatures stay on their tool_call or text part. Error response headers (retry-after), which
 * the SDK's ApiError drops, are captured by a per-request fetch wrapper.
 */

import { randomUUID } from "node:crypto";
import type {
  GenerateContentConfig,
  GenerateContentResponse,
  GoogleGenAI,
  Part,
  ThinkingConfig,
  ThinkingLevel,
} from "@google/genai";
import type { Message } from "../../kernel/conversation/messages.ts";
import type {
  ModelRequest,
  ReasoningEffort,
  StreamEvent,
  StreamFn,
} from "../../kernel/conversation/stream.ts";
import { emptyUsage, type Usage } from "../../kernel/conversation/usage.ts";
import { acceptsTemperature, reasoningSupport } from "../catalog.ts";
import type { HttpFailure } from "../errors.ts";
import { type AdapterOptions, errorContext, runGuarded } from "./adapter.ts";
import { effortFor } from "./effort.ts";
import {
  applyPartialArgs,
  convertContents,
  convertTools,
  GENERATED_ID_PREFIX,
  mapStopReason,
  type PartialArg,
} from "./gemini-convert.ts";
import { MessageBuilder } from "./message-builder.ts";
import { geminiSchemaWithTools } from "./response-schema.ts";

interface StreamedCall {
  key: string;
  continuing: Map<string, boolean>;
}

/**
 * Usage as billed, from the last `usageMetadata` (ai.google.dev/api/generate-content#UsageMetadata):
 * `promptTokenCount` includes the cached tokens (`cachedContentTokenCount`), so they are taken out of the
 * input; `toolUsePromptTokenCount` (tool results the API fed the model) is billed as input;
 * `thoughtsTokenCount` is billed as output (ai.google.dev/gemini-api/docs/pricing: "Output price
 * (including thinking tokens)"). The recorded `totalTokenCount` equals prompt + candidates + tool-use
 * prompt + thoughts.
 */
export function geminiUsage(meta: GenerateContentResponse["usageMetadata"]): Usage {
  const usage = emptyUsage();
  if (!meta) return usage;
  const cached = meta.cachedContentTokenCount ?? 0;
  const thoughts = meta.thoughtsTokenCount ?? 0;
  usage.inputTokens =
    Math.max(0, (meta.promptTokenCount ?? 0) - cached) + (meta.toolUsePromptTokenCount ?? 0);
  usage.cacheReadTokens = cached;
  usage.outputTokens = (meta.candidatesTokenCount ?? 0) + thoughts;
  usage.reasoningTokens = thoughts;
  return usage;
}

/** The continuation token of a partial model turn (see AssistantMessage.continuationToken). */
function continuationOf(message: Message | undefined): string | undefined {
  return message?.role === "assistant" ? message.continuationToken : undefined;
}

/**
 * Gemini `thinkingLevel` for our normalized effort (already mapped to one the model accepts). `XHIGH` is in
 * the ThinkingLevel enum from @google/genai 3.3 (node_modules/@google/genai/dist/genai.d.ts: "XHIGH
 * thinking level"); Gemini 4 Neon and Hydrogen list it among their levels (see catalog/overrides.ts).
 * `max` stays HIGH, the highest level every thinking Gemini model accepts. String values with casts:
 * importing the enum would load the SDK at start-up, and the adapter loads it only when a request is made.
 */
const THINKING_LEVEL: Record<ReasoningEffort, ThinkingLevel | undefined> = {
  none: undefined,
  minimal: "MINIMAL" as ThinkingLevel,
  low: "LOW" as ThinkingLevel,
  medium: "MEDIUM" as ThinkingLevel,
  high: "HIGH" as ThinkingLevel,
  xhigh: "XHIGH" as ThinkingLevel,
  max: "HIGH" as ThinkingLevel,
};

/**
 * Thinking settings for Gemini 3 models the catalog knows (docs.cloud.google.com/.../thinking: the
 * thinking levels each model accepts): `thinkingLevel` from the effort, and `includeThoughts` so thought
 * summaries reach the user as progress. Thought tokens are billed whether or not they are shown.
 */
function thinkingConfig(request: ModelRequest): ThinkingConfig | undefined {
  if (!reasoningSupport(request.model.id)) return undefined;
  const config: ThinkingConfig = { includeThoughts: true };
  const effort = effortFor(request);
  const level = effort ? THINKING_LEVEL[effort] : undefined;
  if (level) config.thinkingLevel = level;
  return config;
}

/** Turns the parts of one chunk into builder calls; keeps the open-call state between chunks. */
class PartReader {
  private calls = 0;
  private reasoningKey = 0;
  streamed: StreamedCall | undefined;

  constructor(private readonly builder: MessageBuilder) {}

  get callCount(): number {
    return this.calls;
  }

  read(part: Part): void {
    const b = this.builder;
    const call = part.functionCall as
      | (NonNullable<Part["functionCall"]> & { partialArgs?: PartialArg[] })
      | undefined;
    if (call) {
      this.closeProse();
      if (call.name) {
        if (this.streamed) b.close(this.streamed.key);
        const key = `call:${this.calls++}`;
        b.toolStart(
          key,
          call.id ?? `${GENERATED_ID_PREFIX}${randomUUID()}`,
          call.name,
          part.thoughtSignature,
        );
        if (call.args) b.toolArgsObject(key, call.args);
        this.streamed = undefined;
        if (call.willContinue && !call.args) this.streamed = { key, continuing: new Map() };
        else b.close(key);
      } else if (this.streamed && (call.partialArgs || call.willContinue)) {
        const target = b.toolArgsTarget(this.streamed.key);
        if (target) applyPartialArgs(target, call.partialArgs ?? [], this.streamed.continuing);
        const fragment = (call.partialArgs ?? []).map((a) => a.stringValue ?? "").join("");
        if (target) b.toolArgsObject(this.streamed.key, target, fragment);
        if (part.thoughtSignature) b.toolSignature(this.streamed.key, part.thoughtSignature);
      } else if (this.streamed) {
        // An empty `functionCall: {}` closes the streamed call.
        b.close(this.streamed.key);
        this.streamed = undefined;
      }
      return;
    }
    if (part.thought) {
      b.close("text");
      b.reasoning(`thought:${this.reasoningKey}`, part.text ?? "");
      if (part.thoughtSignature) b.reasoningSignature(`thought:${this.reasoningKey}`, part.thoughtSignature);
      return;
    }
    if (typeof part.text === "string") {
      // A trailing empty text part carrying only the signature stays a part of its own, to be sent back
      // as it came (ai.google.dev/gemini-api/docs/thought-signatures: return each signature in its part).
      if (part.text === "" && part.thoughtSignature) {
        b.close("text");
        b.signedEmptyText(part.thoughtSignature);
        return;
      }
      if (part.text !== "") {
        b.close(`thought:${this.reasoningKey}`);
        this.reasoningKey++;
      }
      b.text("text", part.text);
      if (part.thoughtSignature) b.textSignature("text", part.thoughtSignature);
    }
  }

  private closeProse(): void {
    this.builder.close("text");
    this.builder.close(`thought:${this.reasoningKey}`);
    this.reasoningKey++;
  }
}

/** Gemini models before 3 take `temperature` unless the catalog says otherwise; from 3 on it is
 * deprecated (see the request builder), whatever models.dev's `temperature` field says. */
export function geminiTakesTemperature(modelId: string): boolean {
  const major = /^gemini-(\d+)/.exec(modelId)?.[1];
  if (major !== undefined && Number(major) >= 3) return false;
  return acceptsTemperature(modelId);
}

/** Creates the Gemini stream function for one provider instance. */
export function geminiStream(options: AdapterOptions): StreamFn {
  let client: Promise<GoogleGenAI> | undefined;
  const getClient = () => {
    const baseUrl = options.baseUrl ?? process.env.GOOGLE_GEMINI_BASE_URL;
    client ??= import("@google/genai").then(
      ({ GoogleGenAI: Sdk }) =>
        // v1beta: the API version that serves thinking, thought signatures and JSON-schema tools.
        new Sdk({
          apiKey: options.apiKey,
          vertexai: false,
          httpOptions: { apiVersion: "v1beta", ...(baseUrl ? { baseUrl } : {}) },
        }),
    );
    return client;
  };

  return (request: ModelRequest) => {
    const builder = new MessageBuilder("gemini");
    const ctx = errorContext("gemini", options, request);
    let failure: HttpFailure = {};
    const capture: typeof fetch = Object.assign(
      async (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) => {
        const response = await fetch(input, init);
        if (!response.ok) failure = { status: response.status, headers: response.headers };
        return response;
      },
      { preconnect: fetch.preconnect },
    );
    return runGuarded(
      ctx,
      request,
      builder,
      () => body(request, builder, capture),
      () => failure,
    );
  };

  async function* body(
    request: ModelRequest,
    builder: MessageBuilder,
    capture: typeof fetch,
  ): AsyncGenerator<StreamEvent> {
    const sdk = await getClient();
    const config: GenerateContentConfig = {
      automaticFunctionCalling: { disable: true },
      automaticContinuation: false,
      httpOptions: { fetch: capture },
    };
    if (request.signal) config.abortSignal = request.signal;
    if (request.system !== "") config.systemInstruction = { parts: [{ text: request.system }] };
    if (request.tools.length > 0) config.tools = convertTools(request.tools);
    if (request.maxOutputTokens !== undefined) config.maxOutputTokens = request.maxOutputTokens;
    // Continuing a response that stopped with CONTINUATION (the loop re-sends the history ending with the
    // partial turn, src/agents/loop/stop-reasons.ts): the request that started it again, without the partial
    // turns, with the latest token (GenerateContentConfig.continuationToken in
    // node_modules/@google/genai/dist/genai.d.ts).
    let start = request.messages.length;
    while (start > 0 && continuationOf(request.messages[start - 1]) !== undefined) start--;
    const continuing = continuationOf(request.messages.at(-1));
    if (continuing) config.continuationToken = continuing;
    // No temperature to Gemini 3 and later: deprecated there since 2026-07-21 and ignored by 3.5 Flash-Lite
    // (ai.google.dev/gemini-api/docs/gemini-3#temperature); the catalog's `temperature: false`, or the
    // version in an id it does not list.
    if (request.temperature !== undefined && geminiTakesTemperature(request.model.id))
      config.temperature = request.temperature;
    const thinking = thinkingConfig(request);
    if (thinking) config.thinkingConfig = thinking;
    // Structured output: JSON mime type + `responseJsonSchema` (ai.google.dev/gemini-api/docs/structured-output;
    // genai.d.ts GenerateContentConfig), with tools only where the model allows both.
    const schema = request.responseSchema;
    if (schema && (request.tools.length === 0 || geminiSchemaWithTools(request.model.id))) {
      config.responseMimeType = "application/json";
      config.responseJsonSchema = schema.schema;
    }
    const stream = await sdk.models.generateContentStream({
      model: request.model.id,
      contents: convertContents(request.messages.slice(0, start), request.model.id),
      config,
    });

    let usage = emptyUsage();
    let model = request.model.id;
    let rawStop: string | null = null;
    const reader = new PartReader(builder);
    for await (const chunk of stream) {
      if (chunk.usageMetadata) usage = geminiUsage(chunk.usageMetadata);
      if (chunk.modelVersion) model = chunk.modelVersion;
      const candidate = chunk.candidates?.[0];
      for (const part of candidate?.content?.parts ?? []) reader.read(part);
      if (candidate?.finishReason) rawStop = candidate.finishReason;
      if (candidate?.continuationToken) builder.continuationToken = candidate.continuationToken;
      yield* builder.drain();
    }
    // Gemini has no end-of-stream event; a cut connection surfaces as a thrown network error instead.
    yield* builder.finish({
      stopReason: mapStopReason(rawStop, reader.callCount > 0),
      rawStopReason: rawStop,
      usage,
      model,
    });
  }
}
