/**
 * Gemini adapter on @google/genai (loaded on first use; it does not retry unless told to).
 * Handles whole `functionCall.args` and the streamed Vertex form (`partialArgs`/`willContinue`, which the
 * SDK passes through unchanged in `candidates[].content`); `thought: true` parts become reasoning;
 * thought signatures stay on their tool_call or text part. Error response headers (retry-after), which
 * the SDK's ApiError drops, are captured by a per-request fetch wrapper.
 */

import { randomUUID } from "node:crypto";
import type { GenerateContentConfig, GenerateContentResponse, GoogleGenAI, Part } from "@google/genai";
import type { ModelRequest, StreamEvent, StreamFn } from "../kernel/stream.ts";
import { emptyUsage, type Usage } from "../kernel/usage.ts";
import { type AdapterOptions, errorContext, runGuarded } from "./adapter.ts";
import type { HttpFailure } from "./errors.ts";
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

function applyUsage(usage: Usage, chunk: GenerateContentResponse): void {
  const meta = chunk.usageMetadata;
  if (!meta) return;
  if (typeof meta.promptTokenCount === "number") usage.inputTokens = meta.promptTokenCount;
  if (typeof meta.candidatesTokenCount === "number") usage.outputTokens = meta.candidatesTokenCount;
  if (typeof meta.cachedContentTokenCount === "number") usage.cacheReadTokens = meta.cachedContentTokenCount;
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
    if (request.temperature !== undefined) config.temperature = request.temperature;
    // Structured output: JSON mime type + `responseJsonSchema` (ai.google.dev/gemini-api/docs/structured-output;
    // genai.d.ts GenerateContentConfig), with tools only where the model allows both.
    const schema = request.responseSchema;
    if (schema && (request.tools.length === 0 || geminiSchemaWithTools(request.model.id))) {
      config.responseMimeType = "application/json";
      config.responseJsonSchema = schema.schema;
    }
    const stream = await sdk.models.generateContentStream({
      model: request.model.id,
      contents: convertContents(request.messages),
      config,
    });

    const usage = emptyUsage();
    let model = request.model.id;
    let rawStop: string | null = null;
    const reader = new PartReader(builder);
    for await (const chunk of stream) {
      applyUsage(usage, chunk);
      if (chunk.modelVersion) model = chunk.modelVersion;
      const candidate = chunk.candidates?.[0];
      for (const part of candidate?.content?.parts ?? []) reader.read(part);
      if (candidate?.finishReason) rawStop = candidate.finishReason;
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
