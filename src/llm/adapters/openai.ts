/**
 * OpenAI Chat Completions adapter on the official SDK (loaded on first use, SDK retries off).
 * Tool-call pieces are joined per `tool_calls` index, the name taken from the piece that carries it;
 * `reasoning_content` / `reasoning` deltas (OpenAI-compatible servers) become reasoning, never text;
 * usage comes from the last chunk that has it (`stream_options.include_usage`).
 */
import type OpenAI from "openai";
import type { ModelRequest, StreamEvent, StreamFn } from "../../kernel/conversation/stream.ts";
import { emptyUsage, type Usage } from "../../kernel/conversation/usage.ts";
import { type AdapterOptions, errorContext, lazyOpenAiClient, runGuarded } from "./adapter.ts";
import { JsonTexts, rawJsonOptions } from "./json-body.ts";
import { MessageBuilder } from "./message-builder.ts";
import {
  buildRequest,
  type ChatConvertMemo,
  type ChatConvertOptions,
  mapStopReason,
  OLLAMA_EFFORTS,
} from "./openai-convert.ts";
import { type RefusableSetting, RefusedSettings, sendDroppingRefused } from "./refused-settings.ts";

/** A tool call whose name has not arrived yet: its pieces wait here. */
interface PendingCall {
  id?: string;
  name?: string;
  args: string;
  started: boolean;
}

type ToolCallPiece = OpenAI.Chat.Completions.ChatCompletionChunk.Choice.Delta.ToolCall;

/**
 * A reasoning effort sent to a model that cannot think: Ollama answers 400 `"<model>" does not support
 * thinking` (github.com/ollama/ollama server/routes.go `ChatHandler`: a thinking value on a model without
 * the thinking capability). The model serves the request without it, so the effort is dropped for it.
 */
const THINKING: RefusableSetting = {
  code: "reasoning_effort_off",
  scope: "model",
  refusedBy: (r) => r.status === 400 && /does not support thinking/i.test(r.message),
  warning: (model, message) =>
    `${model} cannot think: reasoning_effort is no longer sent to it this session (${message})`,
};

/**
 * Usage as billed (platform.openai.com/docs/api-reference/chat/object#usage): `prompt_tokens` includes
 * `prompt_tokens_details.cached_tokens` (and the tokens written to cache, `cache_write_tokens`), so
 * both are taken out of the input; `completion_tokens` includes `reasoning_tokens`. DeepSeek reports
 * the same `cached_tokens` (api-docs.deepseek.com, KV cache). Some compatible servers (xAI, recorded in
 * test/fixtures/conformance/provider-streams/openai-chat/xai-tool-call: completion 26, reasoning 227, total
 * 560 = 307 + 26 + 227) leave reasoning out of `completion_tokens`; `total_tokens` then says so, and
 * the output is everything past the prompt.
 */
export function chatUsage(raw: OpenAI.Completions.CompletionUsage): Usage {
  const usage = emptyUsage();
  const cached = raw.prompt_tokens_details?.cached_tokens ?? 0;
  const written = raw.prompt_tokens_details?.cache_write_tokens ?? 0;
  usage.inputTokens = Math.max(0, (raw.prompt_tokens ?? 0) - cached - written);
  usage.cacheReadTokens = cached;
  usage.cacheWriteTokens = written;
  const prompt = raw.prompt_tokens ?? 0;
  const completion = raw.completion_tokens ?? 0;
  const pastPrompt = typeof raw.total_tokens === "number" ? raw.total_tokens - prompt : 0;
  usage.outputTokens = Math.max(completion, pastPrompt);
  usage.reasoningTokens = raw.completion_tokens_details?.reasoning_tokens ?? 0;
  return usage;
}

/**
 * Which of our call slots a streamed tool-call piece belongs to. The wire `index` names the call, but
 * compatible servers get it wrong: Ollama sends `index: 0` for every parallel call (each with its own
 * id: github.com/ollama/ollama/issues/15457), and older builds sent no `index` (issues/7881). A missing
 * index is the piece's position in the chunk; a piece whose id differs from the id its index already
 * has starts a new call.
 */
export class ToolCallSlots {
  private readonly byIndex = new Map<number, number>();
  private readonly ids: (string | undefined)[] = [];

  slotFor(piece: ToolCallPiece, position: number): number {
    const index = typeof piece.index === "number" ? piece.index : position;
    const current = this.byIndex.get(index);
    const known = current === undefined ? undefined : this.ids[current];
    if (current !== undefined && !(piece.id && known && piece.id !== known)) {
      if (piece.id) this.ids[current] = piece.id;
      return current;
    }
    const slot = this.ids.length;
    this.ids.push(piece.id ?? undefined);
    this.byIndex.set(index, slot);
    return slot;
  }
}

/** Fields OpenAI-compatible servers add to a delta. */
interface ReasoningDelta {
  reasoning_content?: string | null;
  reasoning?: string | null;
}

/** Creates the OpenAI Chat Completions stream function for one provider instance. */
export function openaiStream(options: AdapterOptions): StreamFn {
  const getClient = lazyOpenAiClient(options);
  const convert: ChatConvertOptions = { sendReasoningContent: options.sendReasoningContent === true };
  if (options.server === "ollama") convert.efforts = OLLAMA_EFFORTS;
  // Settings a model refused, kept for the session (refused-settings.ts).
  const refused = new RefusedSettings();
  const memo: ChatConvertMemo = new WeakMap();
  const texts = new JsonTexts();

  return (request: ModelRequest) => {
    const builder = new MessageBuilder("openai");
    const ctx = errorContext("openai", options, request);
    return runGuarded(ctx, request, builder, () => body(request, builder));
  };

  async function* body(request: ModelRequest, builder: MessageBuilder): AsyncGenerator<StreamEvent> {
    const sdk = await getClient();
    const stream = yield* sendDroppingRefused(refused, request.model.id, [THINKING], (isOff) => {
      const params = buildRequest(request, { ...convert, noEffort: isOff(THINKING) }, memo);
      const thinks = params.reasoning_effort !== undefined && params.reasoning_effort !== "none";
      // The body goes as text joined from each message's remembered JSON (json-body.ts). create() still
      // reads its params (`stream`), given without the history: it also walks what it is given, which
      // late in a long session tripled the request's cost (bench/request-body.ts).
      const response = () =>
        sdk.chat.completions.create(
          { ...params, messages: [] },
          rawJsonOptions(texts.body(params, "messages"), request.signal),
        );
      return { carried: thinks ? [THINKING] : [], response };
    });
    let usage = emptyUsage();
    let model = request.model.id;
    let rawStop: string | null = null;
    const calls = new Map<number, PendingCall>();
    const slots = new ToolCallSlots();
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
      if (chunk.usage) usage = chatUsage(chunk.usage);
      const choice = chunk.choices?.find((c) => c.index === 0) ?? chunk.choices?.[0];
      if (!choice) continue;
      const delta = choice.delta ?? {};
      const reasoning = (delta as ReasoningDelta).reasoning_content ?? (delta as ReasoningDelta).reasoning;
      if (typeof reasoning === "string" && reasoning !== "") builder.reasoning("reasoning", reasoning);
      if (typeof delta.content === "string" && delta.content !== "") {
        builder.close("reasoning");
        builder.text("text", delta.content);
      }
      for (const [position, piece] of (delta.tool_calls ?? []).entries()) {
        const slot = slots.slotFor(piece, position);
        const call = calls.get(slot) ?? { args: "", started: false };
        calls.set(slot, call);
        if (piece.id) call.id = piece.id;
        if (piece.function?.name) call.name = piece.function.name;
        const fragment = piece.function?.arguments ?? "";
        if (call.started) builder.toolArgs(`tool:${slot}`, fragment);
        else {
          call.args += fragment;
          if (call.name) startCall(slot, call);
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
