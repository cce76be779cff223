/**
 * `agent helper` without `--tools`: one model request, no tools, the answer streamed as it arrives.
 * Kept apart from the agent loop on purpose: this path must start fast (no tool or loop imports).
 */
import {
  addUsage,
  emptyUsage,
  type ModelRef,
  type ProviderError,
  type StreamFn,
  type Usage,
} from "../kernel/index.ts";
import { costOf } from "../llm/catalog.ts";
import type { ModelClient } from "../llm/client.ts";
import type { HelperOutcome } from "./helper-output.ts";
import defaultSystem from "./helper-system.txt" with { type: "text" };

/** What one helper model call needs. */
export interface HelperCallInput {
  stream: StreamFn;
  model: ModelRef;
  system: string;
  prompt: string;
  signal: AbortSignal;
  /** Answer text as it arrives. */
  onDelta: (delta: string) => void;
}

export type HelperCallResult =
  | { ok: true; answer: string; usage: Usage; model: string }
  | { ok: false; error: ProviderError; answer: string };

/** The helper's model call: one request, no tools. Never throws. */
export async function callModel(input: HelperCallInput): Promise<HelperCallResult> {
  let usage = emptyUsage();
  let answer = "";
  for await (const event of input.stream({
    model: input.model,
    system: input.system,
    messages: [{ role: "user", content: input.prompt }],
    tools: [],
    signal: input.signal,
    ...(input.model.reasoningEffort !== undefined ? { reasoningEffort: input.model.reasoningEffort } : {}),
  })) {
    if (event.type === "text_delta") {
      answer += event.delta;
      input.onDelta(event.delta);
    } else if (event.type === "done") {
      usage = addUsage(usage, event.usage);
      let text = "";
      for (const part of event.message.parts) if (part.type === "text") text += part.text;
      return { ok: true, answer: text || answer, usage, model: event.model || input.model.id };
    } else if (event.type === "error") {
      return { ok: false, error: event.error, answer };
    }
  }
  return {
    ok: false,
    answer,
    error: {
      kind: "truncated",
      message: `${input.model.providerName} ${input.model.id}: stream ended without a result`,
      provider: input.model.provider,
      model: input.model.id,
    },
  };
}

/** A provider error as one line naming provider, model and status. */
export function describeProviderError(error: ProviderError, ref: ModelRef): string {
  const model = error.model || ref.id;
  const status = error.status !== undefined ? ` (HTTP ${error.status})` : "";
  const named =
    error.message.includes(model) &&
    (error.status === undefined || error.message.includes(String(error.status)));
  return named ? error.message : `${error.provider} ${model}${status}: ${error.message}`;
}

export interface SingleCallInput {
  client: ModelClient;
  ref: ModelRef;
  system?: string;
  prompt: string;
  /** Aborts the call (Ctrl-C). */
  signal: AbortSignal;
  /** Wall-clock limit of the call (`--timeout`). */
  timeoutMs?: number;
  onDelta: (delta: string) => void;
  /** The model a fallback switched to, if any (the answer came from it). */
  fellBackTo: () => ModelRef | undefined;
}

/** Runs the single call and turns its result into a helper outcome. Never throws. */
export async function singleCall(input: SingleCallInput): Promise<HelperOutcome> {
  const controller = new AbortController();
  let timedOut = false;
  const onAbort = () => controller.abort();
  input.signal.addEventListener("abort", onAbort, { once: true });
  const timer =
    input.timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          controller.abort();
        }, input.timeoutMs);
  let result: HelperCallResult;
  try {
    result = await callModel({
      stream: input.client.stream,
      model: input.ref,
      system: input.system ?? defaultSystem.trim(),
      prompt: input.prompt,
      signal: controller.signal,
      onDelta: input.onDelta,
    });
  } finally {
    clearTimeout(timer);
    input.signal.removeEventListener("abort", onAbort);
  }
  const used = input.fellBackTo() ?? input.ref;
  const base = { model: used.id, provider: used.providerName, usage: emptyUsage(), costUsd: 0 };
  if (result.ok) {
    const info = input.client.info({ ...used, id: result.model });
    return {
      ...base,
      status: "success",
      finishReason: "stop",
      answer: result.answer,
      model: result.model,
      usage: result.usage,
      costUsd: costOf(result.usage, info),
    };
  }
  if (timedOut) {
    const seconds = (input.timeoutMs ?? 0) / 1000;
    return {
      ...base,
      status: "limit",
      finishReason: "timeout",
      answer: result.answer,
      problem: `helper stopped: --timeout ${seconds}s passed before the answer was complete`,
    };
  }
  if (result.error.kind === "aborted" || input.signal.aborted) {
    return { ...base, status: "interrupted", finishReason: "aborted", answer: "", problem: "interrupted" };
  }
  return {
    ...base,
    status: "error",
    finishReason: "provider_error",
    answer: "",
    problem: describeProviderError(result.error, input.ref),
  };
}
