/**
 * Encodes a scripted fake-LLM turn into the SSE frames of each wire protocol (Anthropic Messages,
 * OpenAI Chat Completions, OpenAI Responses (fake-frames-responses.ts), Gemini streamGenerateContent),
 * and error bodies in each provider's shape. Used by fake-llm-server.ts; see its header for the turn format.
 */
import { encodeResponsesTurn } from "./fake-frames-responses.ts";

/** `openai` is Chat Completions (OpenAI-compatible servers); `openai-responses` is POST /v1/responses. */
export type FakeProtocol = "anthropic" | "openai" | "openai-responses" | "gemini";

/** One tool call the fake model makes. `fragments` splits the argument text into that many pieces. */
export interface FakeToolCall {
  id?: string;
  name: string;
  /** An object, or a raw argument string (lets tests send invalid JSON). */
  args: Record<string, unknown> | string;
  fragments?: number;
}

/**
 * Token counts the fake model reports, as billed (our normalized buckets); each protocol's encoder puts
 * them on the wire the way that provider does: OpenAI `prompt_tokens` and Gemini `promptTokenCount`
 * include the cached tokens, Gemini reports thoughts apart from `candidatesTokenCount`, Anthropic's
 * `input_tokens` excludes the cache.
 */
export interface FakeUsage {
  /** Input billed at the base rate (cache reads and writes excluded; Gemini tool-use prompt included). */
  input?: number;
  /** Output, reasoning/thought tokens included. */
  output?: number;
  cacheRead?: number;
  cacheWrite?: number;
  /** The part of `output` spent on reasoning (Anthropic thinking_tokens, OpenAI reasoning_tokens as
   * Chat `completion_tokens_details` / Responses `output_tokens_details`, Gemini thoughtsTokenCount). */
  reasoning?: number;
  /** Gemini: the part of `input` that is `toolUsePromptTokenCount`. */
  toolUse?: number;
}

/** One scripted model response. Every field is optional; an empty turn is an empty successful reply. */
export interface FakeTurn {
  /** Answer text, whole or as the list of chunks to stream. */
  text?: string | string[];
  /** Reasoning text (Anthropic thinking, OpenAI `reasoning_content`, Gemini `thought` parts). */
  reasoning?: string | string[];
  toolCalls?: FakeToolCall[];
  usage?: FakeUsage;
  /** Raw provider stop reason; defaults per protocol (end_turn / stop / STOP, or the tool-call value). */
  stopReason?: string;
  /** Milliseconds to wait before sending the response headers. */
  delayMs?: number;
  /** Hold the response until this settles (a test releases it when the event it waits for happened). */
  holdUntil?: Promise<unknown>;
  /** Milliseconds to wait between events. */
  chunkDelayMs?: number;
  /** Non-200 status: answers with the provider's error JSON instead of a stream. */
  status?: number;
  /** `retry-after` header value (seconds or HTTP date) sent with an error status. */
  retryAfter?: string | number;
  /** `retry-after-ms` header value sent with an error status. */
  retryAfterMs?: number;
  /** Error message in the body; or `errorBody` to send a body of your own. */
  errorMessage?: string;
  errorBody?: unknown;
  /** Close the connection abruptly after this many events (no terminal event). */
  cutAfterEvents?: number;
  /** Stop sending after this many events but keep the connection open. */
  hangAfterEvents?: number;
  /** Pre-encoded JSON event lines, sent as they are in the protocol's SSE framing. */
  rawEvents?: string[];
  /** A recorded SSE body (e.g. from a VCR cassette), sent byte for byte as one chunk. */
  rawSse?: string;
  /** Anthropic: the signature of the scripted thinking block (the server sets one bound to the request). */
  reasoningSignature?: string;
  /** Anthropic: `message_start.message.input_transformations` (the server adds the blocks it dropped);
   * Responses: `response.input_transformations` (reasoning items withheld from the model). */
  inputTransformations?: unknown[];
  /** Responses: the request asked for no `reasoning.summary`, so the reasoning item carries none (set by
   * the server from the request, as the real API does). */
  withholdSummary?: boolean;
  /** Gemini: the candidate's `continuationToken` (with stopReason `CONTINUATION`). */
  continuationToken?: string;
  /** Only answer requests of this protocol (a mismatch is a loud 400 error). */
  protocol?: FakeProtocol;
  /** Responses: a `refusal` content part instead of text. */
  refusal?: string;
  /** Responses: the message's phase (default `commentary` when the turn calls tools, else `final_answer`). */
  phase?: "commentary" | "final_answer";
  /** Responses: an `error` event then `response.failed` inside the 200 stream. */
  streamError?: { code: string; message: string };
}

const DEFAULT_USAGE = { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, reasoning: 0, toolUse: 0 };

function chunks(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return typeof value === "string" ? (value === "" ? [] : [value]) : value;
}

function argText(call: FakeToolCall): string {
  return typeof call.args === "string" ? call.args : JSON.stringify(call.args);
}

/** Splits text into `n` nearly equal pieces (at least one piece, possibly empty). */
export function splitPieces(text: string, n = 1): string[] {
  const count = Math.max(1, Math.min(n, Math.max(text.length, 1)));
  const size = Math.ceil(text.length / count);
  const pieces: string[] = [];
  for (let i = 0; i < count; i++) pieces.push(text.slice(i * size, (i + 1) * size));
  return pieces;
}

/** A turn's usage with the defaults filled in (billed terms; see FakeUsage). */
export function usageOf(turn: FakeTurn): Required<FakeUsage> {
  return { ...DEFAULT_USAGE, ...turn.usage };
}

/** SSE frame for one event line, in the protocol's framing. */
export function frameLine(protocol: FakeProtocol, line: string): string {
  if (protocol === "anthropic") {
    let type = "message";
    try {
      type = (JSON.parse(line) as { type?: string }).type ?? type;
    } catch {
      // Not JSON: send it under a generic event name.
    }
    return `event: ${type}\ndata: ${line}\n\n`;
  }
  return `data: ${line}\n\n`;
}

function anthropicEvents(turn: FakeTurn, model: string): string[] {
  const usage = usageOf(turn);
  const calls = turn.toolCalls ?? [];
  const out: unknown[] = [
    {
      type: "message_start",
      message: {
        id: "msg_fake",
        type: "message",
        role: "assistant",
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: usage.input,
          output_tokens: 1,
          cache_read_input_tokens: usage.cacheRead,
          cache_creation_input_tokens: usage.cacheWrite,
        },
        ...(turn.inputTransformations ? { input_transformations: turn.inputTransformations } : {}),
      },
    },
  ];
  let index = 0;
  const reasoning = chunks(turn.reasoning);
  if (reasoning.length > 0) {
    out.push({ type: "content_block_start", index, content_block: { type: "thinking", thinking: "" } });
    for (const piece of reasoning) {
      out.push({ type: "content_block_delta", index, delta: { type: "thinking_delta", thinking: piece } });
    }
    out.push({
      type: "content_block_delta",
      index,
      delta: { type: "signature_delta", signature: turn.reasoningSignature ?? "sig-fake" },
    });
    out.push({ type: "content_block_stop", index });
    index++;
  }
  const text = chunks(turn.text);
  if (text.length > 0) {
    out.push({ type: "content_block_start", index, content_block: { type: "text", text: "" } });
    for (const piece of text) {
      out.push({ type: "content_block_delta", index, delta: { type: "text_delta", text: piece } });
    }
    out.push({ type: "content_block_stop", index });
    index++;
  }
  calls.forEach((call, n) => {
    const id = call.id ?? `toolu_fake_${n}`;
    out.push({
      type: "content_block_start",
      index,
      content_block: { type: "tool_use", id, name: call.name, input: {} },
    });
    for (const piece of splitPieces(argText(call), call.fragments)) {
      out.push({
        type: "content_block_delta",
        index,
        delta: { type: "input_json_delta", partial_json: piece },
      });
    }
    out.push({ type: "content_block_stop", index });
    index++;
  });
  const stop = turn.stopReason ?? (calls.length > 0 ? "tool_use" : "end_turn");
  out.push({
    type: "message_delta",
    delta: { stop_reason: stop, stop_sequence: null },
    usage: { output_tokens: usage.output, output_tokens_details: { thinking_tokens: usage.reasoning } },
  });
  out.push({ type: "message_stop" });
  return out.map((event) => JSON.stringify(event));
}

function openaiEvents(turn: FakeTurn, model: string): string[] {
  const usage = usageOf(turn);
  const calls = turn.toolCalls ?? [];
  const base = { id: "chatcmpl-fake", object: "chat.completion.chunk", created: 1_700_000_000, model };
  const chunk = (delta: unknown, finish: string | null = null) =>
    JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] });
  const out: string[] = [chunk({ role: "assistant", content: "" })];
  for (const piece of chunks(turn.reasoning)) out.push(chunk({ reasoning_content: piece }));
  for (const piece of chunks(turn.text)) out.push(chunk({ content: piece }));
  calls.forEach((call, index) => {
    const pieces = splitPieces(argText(call), call.fragments);
    const id = call.id ?? `call_fake_${index}`;
    out.push(
      chunk({
        tool_calls: [{ index, id, type: "function", function: { name: call.name, arguments: pieces[0] } }],
      }),
    );
    for (const piece of pieces.slice(1)) {
      out.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  });
  out.push(chunk({}, turn.stopReason ?? (calls.length > 0 ? "tool_calls" : "stop")));
  out.push(
    JSON.stringify({
      ...base,
      choices: [],
      usage: {
        prompt_tokens: usage.input + usage.cacheRead + usage.cacheWrite,
        completion_tokens: usage.output,
        total_tokens: usage.input + usage.cacheRead + usage.cacheWrite + usage.output,
        prompt_tokens_details: { cached_tokens: usage.cacheRead, cache_write_tokens: usage.cacheWrite },
        completion_tokens_details: { reasoning_tokens: usage.reasoning },
      },
    }),
  );
  return out;
}

/** Gemini streamed-arguments form (Vertex `partialArgs`) for a call split in several fragments. */
function geminiPartialCall(call: FakeToolCall): unknown[] {
  const id = call.id ? { id: call.id } : {};
  const parts: unknown[] = [
    { functionCall: { ...id, name: call.name, willContinue: true }, thoughtSignature: `sig-${call.name}` },
  ];
  const args = typeof call.args === "string" ? {} : call.args;
  for (const [key, value] of Object.entries(args)) {
    const jsonPath = `$.${key}`;
    if (typeof value === "string") {
      for (const piece of splitPieces(value, call.fragments)) {
        parts.push({
          functionCall: {
            partialArgs: [{ jsonPath, stringValue: piece, willContinue: true }],
            willContinue: true,
          },
        });
      }
      parts.push({ functionCall: { partialArgs: [{ jsonPath, stringValue: "" }], willContinue: true } });
    } else {
      const arg =
        typeof value === "number"
          ? { jsonPath, numberValue: value }
          : typeof value === "boolean"
            ? { jsonPath, boolValue: value }
            : { jsonPath, nullValue: null };
      parts.push({ functionCall: { partialArgs: [arg], willContinue: true } });
    }
  }
  parts.push({ functionCall: {} });
  return parts;
}

function geminiEvents(turn: FakeTurn, model: string): string[] {
  const usage = usageOf(turn);
  const chunk = (parts: unknown[], extra: Record<string, unknown> = {}) =>
    JSON.stringify({
      candidates: [{ content: { role: "model", parts }, index: 0, ...extra }],
      modelVersion: model,
    });
  const out: string[] = [];
  for (const piece of chunks(turn.reasoning)) out.push(chunk([{ text: piece, thought: true }]));
  for (const piece of chunks(turn.text)) out.push(chunk([{ text: piece }]));
  for (const call of turn.toolCalls ?? []) {
    if ((call.fragments ?? 1) > 1 && typeof call.args !== "string") {
      for (const part of geminiPartialCall(call)) out.push(chunk([part]));
    } else {
      const args = typeof call.args === "string" ? JSON.parse(call.args) : call.args;
      const functionCall = call.id ? { id: call.id, name: call.name, args } : { name: call.name, args };
      out.push(chunk([{ functionCall, thoughtSignature: `sig-${call.name}` }]));
    }
  }
  out.push(
    JSON.stringify({
      candidates: [
        {
          content: { role: "model", parts: [{ text: "" }] },
          finishReason: turn.stopReason ?? "STOP",
          index: 0,
          ...(turn.continuationToken ? { continuationToken: turn.continuationToken } : {}),
        },
      ],
      usageMetadata: {
        promptTokenCount: usage.input - usage.toolUse + usage.cacheRead,
        candidatesTokenCount: usage.output - usage.reasoning,
        totalTokenCount: usage.input + usage.cacheRead + usage.output,
        cachedContentTokenCount: usage.cacheRead,
        ...(usage.reasoning > 0 ? { thoughtsTokenCount: usage.reasoning } : {}),
        ...(usage.toolUse > 0 ? { toolUsePromptTokenCount: usage.toolUse } : {}),
      },
      modelVersion: model,
    }),
  );
  return out;
}

/** The SSE frames of a successful turn, in order (OpenAI's ends with `data: [DONE]`). */
export function encodeTurn(protocol: FakeProtocol, turn: FakeTurn, model: string): string[] {
  if (turn.rawSse !== undefined) return [turn.rawSse];
  if (protocol === "openai-responses") return encodeResponsesTurn(turn, model, usageOf(turn));
  if (turn.rawEvents) {
    const frames = turn.rawEvents.map((line) => frameLine(protocol, line));
    return protocol === "openai" ? [...frames, "data: [DONE]\n\n"] : frames;
  }
  switch (protocol) {
    case "anthropic":
      return anthropicEvents(turn, model).map((line) => frameLine(protocol, line));
    case "openai":
      return [...openaiEvents(turn, model).map((line) => frameLine(protocol, line)), "data: [DONE]\n\n"];
    case "gemini":
      return geminiEvents(turn, model).map((line) => frameLine(protocol, line));
  }
}

const ANTHROPIC_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  529: "overloaded_error",
};
const GEMINI_STATUS: Record<number, string> = {
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  429: "RESOURCE_EXHAUSTED",
  503: "UNAVAILABLE",
};
const OPENAI_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "invalid_request_error",
  404: "invalid_request_error",
  429: "rate_limit_error",
};

/** An error body in the provider's real JSON shape. */
export function errorBody(protocol: FakeProtocol, status: number, message: string): unknown {
  switch (protocol) {
    case "anthropic":
      return { type: "error", error: { type: ANTHROPIC_TYPES[status] ?? "api_error", message } };
    case "openai":
    case "openai-responses":
      return {
        error: {
          message,
          type: OPENAI_TYPES[status] ?? "server_error",
          param: null,
          code: status === 401 ? "invalid_api_key" : status === 429 ? "rate_limit_exceeded" : null,
        },
      };
    case "gemini":
      return { error: { code: status, message, status: GEMINI_STATUS[status] ?? "INTERNAL" } };
  }
}
