import {
  type AgentIdentity,
  type AssistantMessage,
  assistantText,
  assistantToolCalls,
  type EmitFn,
  inputLimit,
  type ModelRequest,
  makeEvent,
  type StreamFn,
} from "../../kernel/index.ts";
import { definitionsOf } from "./act.ts";
import {
  compactForRetry,
  ELIDE_THRESHOLD,
  elideOldToolResults,
  estimateTokens,
  LAST_RESORT_ELIDE_THRESHOLD,
} from "./guards.ts";
import { aborted, append, CONTINUE, end, type Run, type Step, type TurnState } from "./run-state.ts";
import type { StopHandler } from "./stop-reasons.ts";
import { type PlanOutcome, streamReply } from "./stream-reply.ts";

/**
 * Plan, the whole phase in one file: compact past the threshold, one model call (plan_start and
 * plan_end around it; the streaming itself is stream-reply.ts), and the stop reasons that cut a reply.
 * Never throws: a stream that throws or ends without a terminal event is an error.
 */

/** One model call of a turn, between plan_start and plan_end events. */
export async function planTurn(
  request: ModelRequest,
  stream: StreamFn,
  who: AgentIdentity,
  emit: EmitFn,
  turn: number,
): Promise<PlanOutcome> {
  emit(makeEvent(who, "plan_start", { turn, model: request.model.id, provider: request.model.providerName }));
  const outcome = await streamReply(request, stream, who, emit);
  const message = outcome.ok ? outcome.message : outcome.partial;
  emit(
    makeEvent(who, "plan_end", {
      turn,
      stopReason: outcome.ok ? outcome.stopReason : `error:${outcome.error.kind}`,
      usage: outcome.usage,
      text: message ? textOf(message) : "",
      toolCalls: message ? assistantToolCalls(message).map((c) => ({ id: c.id, name: c.name })) : [],
    }),
  );
  return outcome;
}

function textOf(message: AssistantMessage): string {
  let text = "";
  for (const part of message.parts) if (part.type === "text") text += part.text;
  return text;
}

/** A reply the loop goes on with: the model's message, and whether it refused. */
export interface Reply {
  message: AssistantMessage;
  refusal: boolean;
}

/**
 * Plan: compact past the threshold (eliding old results only as a last resort, as it rewrites history), call
 * the model, and handle stop reasons that cut the reply. Continues with the reply, or without one when a
 * stop reason asks for the turn again (a note or a compaction was made); ends on an error or a cut that
 * cannot be continued.
 */
export async function plan(run: Run, state: TurnState, turn: number): Promise<Step<{ reply?: Reply }>> {
  const { options, who, compactor } = run;
  const { spec } = options;
  const { ref: model, info } = state.model;
  const tools = definitionsOf(run.tools);
  const compacted = await compactor.maybeCompact(state.messages);
  if (compacted) state.messages.splice(0, state.messages.length, ...compacted);
  const elideAt = compactor.failed ? ELIDE_THRESHOLD : LAST_RESORT_ELIDE_THRESHOLD;
  // The model's maximum input, not its window (GPT-6.x refuses input past 922K of its 1.05M window).
  const limitTokens = Math.floor(inputLimit(info) * elideAt);
  const elided = elideOldToolResults(state.messages, {
    system: run.system,
    tools,
    limitTokens,
    meter: run.meter,
  });
  if (elided.elided > 0) {
    run.shared.log.contextCut(who.agent);
    state.messages.splice(0, state.messages.length, ...elided.messages);
    options.emit(
      makeEvent(who, "warning", { message: `elided ${elided.elided} old tool results`, code: "elided" }),
    );
  }
  const request: ModelRequest = {
    model,
    system: run.system,
    // slice(), not spread: a whole-history spread costs 10-50 times more per element in Bun 1.4.
    messages: state.messages.slice(),
    tools,
    signal: run.abort.signal,
    ...(state.raiseLimit ? { maxOutputTokens: info.maxOutputTokens } : {}),
    ...reasoningEffortFor(spec.reasoning_effort ?? model.reasoningEffort),
    ...run.shaper.request(),
    // One prompt-cache key per session and agent (OpenAI `prompt_cache_key`, "used by OpenAI to cache
    // responses for similar requests to optimize your cache hit rates": platform.openai.com/docs/api-reference/
    // responses/create#responses_create-prompt_cache_key, as quoted in Azure's ResponseObject.PromptCacheKey
    // reference). An agent's turns share a growing prefix; a sub-agent's prefix differs, so it gets its own.
    ...(run.shared.sessionId ? { cacheKey: `${run.shared.sessionId}:${who.agent}` } : {}),
  };
  const planned = await planTurn(request, options.stream, who, options.emit, turn);
  // After a fallback the answering model bills at its own prices and is the one the summary names.
  const servedBy = planned.ok ? planned.servedBy : undefined;
  run.shared.tracker.add(who.agent, planned.usage, servedBy ? options.modelInfo(servedBy) : info);
  if (servedBy) run.shared.tracker.answeredBy(who.agent, servedBy.id);
  // With the estimate of what was sent, so the compactor learns how the provider counts against it.
  compactor.record(planned.usage, estimateTokens(run.system, request.messages, tools, run.meter));
  run.shared.log.turn(who.agent);
  if (!planned.ok) {
    const partial = planned.partial ? assistantText(planned.partial).trim() : "";
    if (partial) state.bestAnswer = partial;
    const stoppedNow = aborted(run, state);
    if (stoppedNow) return end(stoppedNow);
    const { kind, message } = planned.error;
    // The provider refused the input as too long: compact (or cut) once and send the turn again.
    if (kind === "context_length") return handleStop(run, state, "context_window", EMPTY_REPLY, message);
    options.emit(makeEvent(who, "error", { message, kind }));
    return end({ finishReason: "provider_error", answer: state.bestAnswer, error: { kind, message } });
  }
  return handleStop(run, state, planned.stopReason, planned.message);
}

/** Stop reasons that cut the reply (see stop-reasons.ts): continue, re-send, compact, or end clearly. */
async function handleStop(
  run: Run,
  state: TurnState,
  stopReason: Parameters<StopHandler["decide"]>[0],
  message: AssistantMessage,
  /** The provider's refusal of a too-long input (a 400), which stands for a `context_window` stop. */
  refusal?: string,
): Promise<Step<{ reply?: Reply }>> {
  const decided = run.stops.decide(stopReason, message);
  const stop =
    refusal !== undefined && decided.action === "compact"
      ? { ...decided, reason: `${refusal}: compacting the conversation and sending the turn again, once` }
      : decided;
  state.raiseLimit = false;
  if (stop.action === "accept")
    return { next: "continue", reply: { message, refusal: stopReason === "refusal" } };
  if (stop.action === "finish") {
    if (stop.keep) append(run, state, stop.keep);
    const answer = run.stops.partial().trim() || state.bestAnswer;
    return end({ finishReason: stop.finishReason, answer });
  }
  run.options.emit(makeEvent(run.who, "warning", { message: stop.reason, code: stop.code }));
  if (stop.action === "compact") {
    // A full context window: summarise the older turns first; elide old results when that cannot help.
    run.compactor.request("context_window");
    const tools = definitionsOf(run.tools);
    const compacted =
      (await run.compactor.maybeCompact(state.messages)) ??
      compactForRetry(state.messages, { system: run.system, tools, meter: run.meter });
    if (!compacted) return end({ finishReason: "context_window", answer: state.bestAnswer });
    run.shared.log.contextCut(run.who.agent);
    state.messages.splice(0, state.messages.length, ...compacted);
  } else {
    if (stop.keep) append(run, state, stop.keep);
    if (stop.note) append(run, state, { role: "user", content: stop.note });
    state.raiseLimit = stop.raiseLimit;
  }
  state.bestAnswer = run.stops.partial().trim() || state.bestAnswer;
  return CONTINUE;
}

/** The reply a refused request did not get: nothing to keep. */
const EMPTY_REPLY: AssistantMessage = { role: "assistant", parts: [] };

/** The reasoning effort of an agent's model calls: the spec's, else the tier's from config, else none. */
function reasoningEffortFor(effort: ModelRequest["reasoningEffort"]): Pick<ModelRequest, "reasoningEffort"> {
  return effort !== undefined ? { reasoningEffort: effort } : {};
}
