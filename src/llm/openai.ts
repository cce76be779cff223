/**
 * OpenAI Chat Completions adapter on the official SDK (loaded on first use, SDK retries off).
 * Tool-call pieces are joined per `tool_calls` index, the name taken from the piece that carries it;
 * `reasoning_content` / `reasoning` deltas (OpenAI-compatible servers) become reasoning, never text;
 * usage comes from the last chunk that has it (`stream_options.include_usage`).
 */
import type OpenAI from "openai";
import type { ModelRequest, StreamEvent, StreamFn } from "../kernel/stream.ts";
import { emptyUsage } from "../kernel/usage.ts";
import { type AdapterOptions, errorContext, runGuarded } from "./adapter.ts";
import { MessageBuilder } from "./message-builder.ts";
import { buildRequest, mapStopReason } from "./openai-convert.ts";

/** A tool call whose name has not arrived yet: its pieces wait here. */
interface PendingCall {
  id?: string;
  name?: string;
  args: string;
  started: boolean;
}

/** Fields OpenAI-compatible servers add to a delta. */
interface ReasoningDelta {
  reasoning_content?: string | null;
  reasoning?: string | null;
}

/** Creates the OpenAI Chat Completions stream function for one provider instance. */
export function openaiStream(options: AdapterOptions): StreamFn {
  let client: Promise<OpenAI> | undefined;
  const getClient = () => {
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
  const official = options.name === "openai";

  return (request: ModelRequest) => {
    const builder = new MessageBuilder("openai");
    const ctx = errorContext("openai", options, request);
    return runGuarded(ctx, request, builder, () => body(request, builder));
  };

  async function* body(request: ModelRequest, builder: MessageBuilder): AsyncGenerator<StreamEvent> {
    const sdk = await getClient();
    const stream = await sdk.chat.completions.create(
      buildRequest(request, official),
      request.signal ? { signal: request.signal } : {},
    );
    const usage = emptyUsage();
    let model = request.model.id;
    let rawStop: string | null = null;
    const calls = new Map<number, PendingCall>();
    const startCall = (index: number, call: PendingCall) => {
      const key = `tool:${index}`;
      builder.close("reasoning");
      builder.close("text");
      builder.toolStart(key, call.id ?? `call_${index}`, call.name ?? "");
      call.started = true;
      builder.toolArgs(key, call.args);
    };

    for await (const chunk of stream) {
      if (chunk.model) model = chunk.model;
      if (chunk.usage) {
        usage.inputTokens = chunk.usage.prompt_tokens ?? 0;
        usage.outputTokens = chunk.usage.completion_tokens ?? 0;
        usage.cacheReadTokens = chunk.usage.prompt_tokens_details?.cached_tokens ?? 0;
      }
      const choice = chunk.choices?.find((c) => c.index === 0) ?? chunk.choices?.[0];
      if (!choice) continue;
      const delta = choice.delta ?? {};
      const reasoning = (delta as ReasoningDelta).reasoning_content ?? (delta as ReasoningDelta).reasoning;
      if (typeof reasoning === "string" && reasoning !== "") builder.reasoning("reasoning", reasoning);
      if (typeof delta.content === "string" && delta.content !== "") {
        builder.close("reasoning");
        builder.text("text", delta.content);
      }
      for (const piece of delta.tool_calls ?? []) {
        const call = calls.get(piece.index) ?? { args: "", started: false };
        calls.set(piece.index, call);
        if (piece.id) call.id = piece.id;
        if (piece.function?.name) call.name = piece.function.name;
        const fragment = piece.function?.arguments ?? "";
        if (call.started) builder.toolArgs(`tool:${piece.index}`, fragment);
        else {
          call.args += fragment;
          if (call.name) startCall(piece.index, call);
        }
      }
      if (choice.finish_reason) rawStop = choice.finish_reason;
      yield* builder.drain();
    }
    if (rawStop === null) return; // No finish_reason: runGuarded reports a truncated stream.
    for (const [index, call] of calls) if (!call.started) startCall(index, call);
    yield* builder.finish({ stopReason: mapStopReason(rawStop), rawStopReason: rawStop, usage, model });
  }
}
