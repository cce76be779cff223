/**
 * `agent helper` without `--tools`: one model request, no tools, the answer streamed as it arrives.
 * Kept apart from the agent loop on purpose: this path must start fast (no tool or loop imports).
 */

import { describeBudget, UsageTracker } from "../../agents/loop/bookkeeping/usage-tracker.ts";
import { AnswerShaper, type OutputSchema } from "../../agents/loop/output-schema.ts";
import { StopHandler } from "../../agents/loop/stop-reasons.ts";
import {
  type AssistantMessage,
  addUsage,
  assistantText,
  emptyActivity,
  emptyUsage,
  type FinishReason,
  type Message,
  type ModelRef,
  type ProviderError,
  type StopReason,
  type StreamFn,
  type Usage,
} from "../../kernel/index.ts";
import { costOf } from "../../llm/catalog.ts";
import type { ModelClient } from "../../llm/client.ts";
import type { HelperOutcome } from "./helper-output.ts";
import defaultSystem from "./helper-system.txt" with { type: "text" };

/** What one helper model call needs. */
export interface HelperCallInput {
  stream: StreamFn;
  model: ModelRef;
  system: string;
  prompt: string;
  signal: AbortSignal;
  /** The catalog's output limit, used when a cut answer is continued. */
  maxOutputTokens?: number;
  /** Answer text as it arrives. */
  onDelta: (delta: string) => void;
  /** A stream warning (model_retiring, reasoning_dropped, ...) with its code: one line for stderr. */
  onWarning?: (message: string, code: string) => void;
  /** `--schema`: sent natively, and the answer checked (re-asked once when it does not match). */
  schema?: OutputSchema;
  /** Why the usage so far exceeds a budget, checked before every request after the first. */
  overBudget?: (usage: Usage) => string | undefined;
}

export type HelperCallResult =
  | {
      ok: true;
      answer: string;
      usage: Usage;
      model: string;
      /** Requests made (a continued answer takes more than one). */
      turns: number;
      /** `stop` for a complete answer; `refusal`; `truncated` or `context_window` for a cut one;
       * `budget` before a further request; `invalid_output` for an answer that missed `--schema`. */
      finishReason: Extract<
        FinishReason,
        "stop" | "refusal" | "truncated" | "context_window" | "malformed_call" | "budget" | "invalid_output"
      >;
      /** Why a budget or the schema ended the call. */
      problem?: string;
    }
  | { ok: false; error: ProviderError; answer: string };

type Attempt =
  | { ok: true; message: AssistantMessage; stopReason: StopReason; usage: Usage; model: string }
  | { ok: false; error: ProviderError; answer: string };

/** One request of the call. Never throws. */
async function attempt(
  input: HelperCallInput,
  messages: Message[],
  maxOutputTokens?: number,
): Promise<Attempt> {
  let answer = "";
  for await (const event of input.stream({
    model: input.model,
    system: input.system,
    messages: [...messages],
    tools: [],
    signal: input.signal,
    ...(maxOutputTokens !== undefined ? { maxOutputTokens } : {}),
    ...(input.model.reasoningEffort !== undefined ? { reasoningEffort: input.model.reasoningEffort } : {}),
    ...new AnswerShaper(input.schema).request(),
  })) {
    if (event.type === "text_delta") {
      answer += event.delta;
      input.onDelta(event.delta);
    } else if (event.type === "warning") {
      input.onWarning?.(event.message, event.code);
    } else if (event.type === "done") {
      return {
        ok: true,
        message: event.message,
        stopReason: event.stopReason,
        usage: event.usage,
        model: event.model,
      };
    } else if (event.type === "error") {
      return { ok: false, error: event.error, answer };
    }
  }
  const error: ProviderError = {
    kind: "truncated",
    message: `${input.model.providerName} ${input.model.id}: stream ended without a result`,
    provider: input.model.provider,
    model: input.model.id,
  };
  return { ok: false, answer, error };
}

/**
 * The helper's model call: one request, no tools. A cut answer is continued once (the same rules as the
 * agent loop, src/agents/loop/stop-reasons.ts) and otherwise ends `truncated` or `context_window`, never as a
 * complete answer. Never throws.
 */
export async function callModel(input: HelperCallInput): Promise<HelperCallResult> {
  const messages: Message[] = [{ role: "user", content: input.prompt }];
  const stops = new StopHandler();
  const shaper = new AnswerShaper(input.schema);
  let usage = emptyUsage();
  let raise = false;
  let lastAnswer = "";
  for (let request = 0; ; request++) {
    const over = request > 0 ? input.overBudget?.(usage) : undefined;
    if (over !== undefined) {
      const answer = shaper.partial(stops.partial() || lastAnswer);
      return {
        ok: true,
        answer,
        usage,
        model: input.model.id,
        finishReason: "budget",
        problem: over,
        turns: request,
      };
    }
    const turn = await attempt(input, messages, raise ? input.maxOutputTokens : undefined);
    if (!turn.ok) return { ok: false, error: turn.error, answer: stops.partial() + turn.answer };
    usage = addUsage(usage, turn.usage);
    const model = turn.model || input.model.id;
    const text = assistantText(turn.message);
    const end = (finishReason: Extract<HelperCallResult, { ok: true }>["finishReason"], answer: string) =>
      ({ ok: true, answer, usage, model, finishReason, turns: request + 1 }) as const;
    if (turn.stopReason === "refusal") return end("refusal", stops.answer(text));
    const stop = stops.decide(turn.stopReason, turn.message);
    if (stop.action === "accept") {
      lastAnswer = stops.answer(text);
      const shaped = shaper.decide(lastAnswer);
      if (shaped.action === "accept") return end("stop", shaped.answer);
      if (shaped.action === "fail") return { ...end("invalid_output", lastAnswer), problem: shaped.error };
      messages.push(turn.message, { role: "user", content: shaped.note });
      continue;
    }
    if (stop.action === "finish") return end(stop.finishReason, shaper.partial(stops.partial()));
    // One request holds nothing to elide.
    if (stop.action === "compact") return end("context_window", shaper.partial(stops.answer(text)));
    if (stop.keep) messages.push(stop.keep);
    if (stop.note) messages.push({ role: "user", content: stop.note });
    raise = stop.raiseLimit;
  }
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

/** Why a cut single call stopped (stderr); the partial answer is still printed, exit 5. */
export const CUT_PROBLEM: Record<"truncated" | "context_window", string> = {
  truncated:
    "helper stopped: the output limit cut the answer even after one continuation (partial answer printed)",
  context_window: "helper stopped: the answer filled the model's context window (partial answer printed)",
};

/** The built-in system prompt of a single helper call (helper-system.txt). */
export const SINGLE_CALL_SYSTEM = defaultSystem.trim();

/** Why a refused helper run ended (stderr), with the model's own words when it gave any: stdout stays empty,
 * so this line is the only place the user learns why. */
export function refusalProblem(answer: string): string {
  const text = answer.trim();
  if (text === "") return "helper ended: the model refused (refusal)";
  return `helper ended: the model refused (refusal): ${text.length > 300 ? `${text.slice(0, 300)}…` : text}`;
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
  /** A stream warning with its code, one line for stderr. */
  onWarning?: (message: string, code: string) => void;
  /** The model a fallback switched to, if any (the answer came from it). */
  fellBackTo: () => ModelRef | undefined;
  schema?: OutputSchema;
  /** Budgets of the call (`--max-tokens`, `--max-budget-usd`, config defaults). */
  tokenBudget?: number;
  costBudgetUsd?: number;
}

/** The budget check of a single call, when a budget is set: the same counters as the agent loop. */
function budgetGuard(input: SingleCallInput): Pick<HelperCallInput, "overBudget"> {
  const { tokenBudget, costBudgetUsd } = input;
  if (tokenBudget === undefined && costBudgetUsd === undefined) return {};
  const info = input.client.info(input.ref);
  return {
    overBudget: (usage) => {
      const tracker = new UsageTracker();
      tracker.register({
        agent: "root",
        name: "helper",
        depth: 0,
        model: input.ref.id,
        ...(tokenBudget !== undefined ? { tokenBudget } : {}),
        ...(costBudgetUsd !== undefined ? { costBudgetUsd } : {}),
      });
      tracker.add("root", usage, info);
      const over = tracker.exceeded("root");
      return over ? describeBudget(over) : undefined;
    },
  };
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
      system: input.system ?? SINGLE_CALL_SYSTEM,
      prompt: input.prompt,
      signal: controller.signal,
      maxOutputTokens: input.client.info(input.ref).maxOutputTokens,
      onDelta: input.onDelta,
      ...(input.onWarning ? { onWarning: input.onWarning } : {}),
      ...(input.schema ? { schema: input.schema } : {}),
      ...budgetGuard(input),
    });
  } finally {
    clearTimeout(timer);
    input.signal.removeEventListener("abort", onAbort);
  }
  const used = input.fellBackTo() ?? input.ref;
  const base = { model: used.id, provider: used.providerName, usage: emptyUsage(), costUsd: 0 };
  if (result.ok) {
    const info = input.client.info({ ...used, id: result.model });
    const done = {
      ...base,
      finishReason: result.finishReason,
      answer: result.answer,
      model: result.model,
      usage: result.usage,
      costUsd: costOf(result.usage, info),
      activity: { ...emptyActivity(), turns: result.turns },
    };
    if (result.finishReason === "stop") return { ...done, status: "success" };
    if (result.finishReason === "invalid_output") {
      return { ...done, status: "failure", problem: `helper ended: ${result.problem ?? "invalid output"}` };
    }
    if (result.finishReason === "budget") {
      return { ...done, status: "limit", problem: `helper stopped: ${result.problem ?? "budget reached"}` };
    }
    if (result.finishReason === "refusal")
      return { ...done, status: "failure", problem: refusalProblem(done.answer) };
    if (result.finishReason === "malformed_call") {
      return {
        ...done,
        status: "failure",
        problem: "helper ended: the model made a malformed call (malformed_call)",
      };
    }
    return { ...done, status: "limit", problem: CUT_PROBLEM[result.finishReason] };
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
    error: { kind: result.error.kind, message: describeProviderError(result.error, input.ref) },
  };
}
