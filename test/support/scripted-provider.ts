import type {
  AssistantMessage,
  AssistantPart,
  ModelRequest,
  ProviderError,
  StopReason,
  StreamEvent,
  StreamFn,
  Usage,
} from "../../src/kernel/index.ts";
import { emptyUsage } from "../../src/kernel/index.ts";

/**
 * An in-process scripted provider (a StreamFn) for unit tests: scripted turns per agent or from one
 * queue, each text and/or tool calls (optionally with malformed argument text), an optional delay that
 * honours abort, an optional error. It emits start/delta/end events and exactly one terminal event,
 * and records every request it receives.
 */

/** One scripted tool call. `rawArguments` makes it malformed: `arguments` becomes `{}` with a parseError. */
export interface ScriptedToolCall {
  name: string;
  arguments?: Record<string, unknown>;
  rawArguments?: string;
  id?: string;
}

/** One scripted model response. */
export interface ScriptedTurn {
  text?: string;
  toolCalls?: ScriptedToolCall[];
  /** Milliseconds to wait before answering (aborts early with an `aborted` error when the signal fires). */
  delayMs?: number;
  /** Ends the stream with this error instead of an answer (after any text). */
  error?: { kind: ProviderError["kind"]; message: string; status?: number };
  stopReason?: StopReason;
  usage?: Partial<Usage>;
}

export type TurnSource = ScriptedTurn | ((request: ModelRequest, index: number) => ScriptedTurn);

export interface ScriptOptions {
  /** Turns per agent; a request goes to the first key its system prompt contains. */
  agents?: Record<string, TurnSource[]>;
  /** Turns for requests no agent key matches, in order. */
  queue?: TurnSource[];
  /** Answers every request no queue can serve (e.g. an endless tool-calling model). */
  fallback?: (request: ModelRequest, index: number) => ScriptedTurn;
  /** Usage reported for each turn unless the turn says otherwise. */
  usage?: Partial<Usage>;
}

export interface ScriptedProvider {
  stream: StreamFn;
  /** Every request received, in arrival order, with the key it was routed to. */
  requests: { key: string; request: ModelRequest; time: number }[];
}

const DEFAULT_USAGE: Usage = { ...emptyUsage(), inputTokens: 10, outputTokens: 5 };

function sleep(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** Builds a scripted provider. */
export function scriptedProvider(options: ScriptOptions): ScriptedProvider {
  const requests: ScriptedProvider["requests"] = [];
  const positions = new Map<string, number>();
  let callCount = 0;
  let callId = 0;

  const next = (request: ModelRequest): { key: string; turn: ScriptedTurn | undefined } => {
    const key = Object.keys(options.agents ?? {}).find((k) => request.system.includes(k)) ?? "";
    const list = key ? options.agents?.[key] : options.queue;
    const position = positions.get(key) ?? 0;
    positions.set(key, position + 1);
    const index = callCount++;
    const source = list?.[position];
    if (source === undefined) return { key, turn: options.fallback?.(request, index) };
    return { key, turn: typeof source === "function" ? source(request, index) : source };
  };

  async function* stream(request: ModelRequest): AsyncGenerator<StreamEvent> {
    const { key, turn } = next(request);
    requests.push({ key, request, time: Date.now() });
    const provider = request.model.provider;
    const model = request.model.id;
    if (!turn) {
      yield {
        type: "error",
        error: {
          kind: "unknown",
          message: `scripted provider: no turn left for "${key || "queue"}"`,
          provider,
          model,
        },
      };
      return;
    }
    if (turn.delayMs && !(await sleep(turn.delayMs, request.signal))) {
      yield { type: "error", error: { kind: "aborted", message: "aborted", provider, model } };
      return;
    }
    if (request.signal?.aborted) {
      yield { type: "error", error: { kind: "aborted", message: "aborted", provider, model } };
      return;
    }
    const parts: AssistantPart[] = [];
    let index = 0;
    if (turn.text !== undefined) {
      yield { type: "text_start", index };
      const half = Math.ceil(turn.text.length / 2);
      for (const delta of [turn.text.slice(0, half), turn.text.slice(half)]) {
        if (delta) yield { type: "text_delta", index, delta };
      }
      yield { type: "text_end", index, text: turn.text };
      parts.push({ type: "text", text: turn.text });
      index++;
    }
    const usage: Usage = { ...DEFAULT_USAGE, ...options.usage, ...turn.usage };
    if (turn.error) {
      const partial: AssistantMessage = { role: "assistant", parts };
      yield { type: "error", error: { ...turn.error, provider, model }, partial };
      return;
    }
    for (const scripted of turn.toolCalls ?? []) {
      const id = scripted.id ?? `call_${++callId}`;
      yield { type: "tool_call_start", index, id, name: scripted.name };
      const raw = scripted.rawArguments ?? JSON.stringify(scripted.arguments ?? {});
      yield { type: "tool_call_delta", index, delta: raw };
      const call =
        scripted.rawArguments !== undefined
          ? parsedOrMalformed(id, scripted.name, scripted.rawArguments)
          : { id, name: scripted.name, arguments: scripted.arguments ?? {} };
      yield { type: "tool_call_end", index, call };
      parts.push({ type: "tool_call", ...call });
      index++;
    }
    yield { type: "usage", usage };
    const stopReason = turn.stopReason ?? ((turn.toolCalls?.length ?? 0) > 0 ? "tool_calls" : "end");
    yield {
      type: "done",
      stopReason,
      rawStopReason: stopReason,
      message: { role: "assistant", parts },
      usage,
      model,
    };
  }

  return { stream, requests };
}

function parsedOrMalformed(id: string, name: string, raw: string) {
  try {
    const value: unknown = JSON.parse(raw);
    if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      return { id, name, arguments: value as Record<string, unknown> };
    }
  } catch (error) {
    return { id, name, arguments: {}, rawArguments: raw, parseError: (error as Error).message };
  }
  return { id, name, arguments: {}, rawArguments: raw, parseError: "arguments are not a JSON object" };
}
