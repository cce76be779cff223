import {
  type AgentIdentity,
  type AssistantMessage,
  assistantText,
  assistantToolCalls,
  type EmitFn,
  type ModelInfo,
  type ModelRef,
  type ModelRequest,
  makeEvent,
  type StreamFn,
} from "../../kernel/index.ts";
import { definitionsOf } from "./act.ts";
import type { Compactor } from "./context/compaction.ts";
import {
  compactForRetry,
  ELIDE_THRESHOLD,
  elideOldToolResults,
  LAST_RESORT_ELIDE_THRESHOLD,
} from "./guards.ts";
import { aborted, append, finishNode, type Node, type NodeOutcome } from "./node.ts";
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

export type Planned =
  | { ok: true; message: AssistantMessage; refusal: boolean }
  | { ok: false; end?: NodeOutcome };

/** Plan: compact past the threshold (eliding old results only as a last resort, as it rewrites history), call the model, and handle stop reasons that cut the reply. */
export async function plan(node: Node, turn: number): Promise<Planned> {
  const { options, who, messages } = node;
  const { spec } = options;
  const model = node.model as ModelRef;
  const info = node.info as ModelInfo;
  const tools = definitionsOf(node.tools);
  const compactor = node.compactor as Compactor;
  const compacted = await compactor.maybeCompact(messages);
  if (compacted) messages.splice(0, messages.length, ...compacted);
  const elideAt = compactor.failed ? ELIDE_THRESHOLD : LAST_RESORT_ELIDE_THRESHOLD;
  const limitTokens = Math.floor(info.contextWindow * elideAt);
  const elided = elideOldToolResults(messages, {
    system: node.system,
    tools,
    limitTokens,
    meter: node.meter,
  });
  if (elided.elided > 0) {
    node.shared.log.contextCut(who.agent);
    messages.splice(0, messages.length, ...elided.messages);
    options.emit(
      makeEvent(who, "warning", { message: `elided ${elided.elided} old tool results`, code: "elided" }),
    );
  }
  const request: ModelRequest = {
    model,
    system: node.system,
    // slice(), not spread: a whole-history spread costs 10-50 times more per element in Bun 1.4.
    messages: messages.slice(),
    tools,
    signal: node.run.signal,
    ...(node.raiseLimit ? { maxOutputTokens: info.maxOutputTokens } : {}),
    ...reasoningEffortFor(spec.reasoning_effort ?? model.reasoningEffort),
    ...node.shaper.request(),
    // One prompt-cache key per session and agent (OpenAI `prompt_cache_key`, "used by OpenAI to cache
    // responses for similar requests to optimize your cache hit rates": platform.openai.com/docs/api-reference/
    // responses/create#responses_create-prompt_cache_key, as quoted in Azure's ResponseObject.PromptCacheKey
    // reference). An agent's turns share a growing prefix; a sub-agent's prefix differs, so it gets its own.
    ...(node.shared.sessionId ? { cacheKey: `${node.shared.sessionId}:${who.agent}` } : {}),
  };
  const planned = await planTurn(request, options.stream, who, options.emit, turn);
  // After a fallback the answering model bills at its own prices and is the one the summary names.
  const servedBy = planned.ok ? planned.servedBy : undefined;
  node.shared.tracker.add(who.agent, planned.usage, servedBy ? options.modelInfo(servedBy) : info);
  if (servedBy) node.shared.tracker.answeredBy(who.agent, servedBy.id);
  compactor.record(planned.usage);
  node.shared.log.turn(who.agent);
  if (!planned.ok) {
    const partial = planned.partial ? assistantText(planned.partial).trim() : "";
    if (partial) node.bestAnswer = partial;
    const stoppedNow = aborted(node);
    if (stoppedNow) return { ok: false, end: await finishNode(node, stoppedNow) };
    const { kind, message } = planned.error;
    options.emit(makeEvent(who, "error", { message, kind }));
    const end = await finishNode(node, {
      finishReason: "provider_error",
      answer: node.bestAnswer,
      error: { kind, message },
    });
    return { ok: false, end };
  }
  return handleStop(node, planned.stopReason, planned.message);
}

/** Stop reasons that cut the reply (see stop-reasons.ts): continue, re-send, compact, or end clearly. */
async function handleStop(
  node: Node,
  stopReason: Parameters<StopHandler["decide"]>[0],
  message: AssistantMessage,
): Promise<Planned> {
  const stop = node.stops.decide(stopReason, message);
  node.raiseLimit = false;
  if (stop.action === "accept") return { ok: true, message, refusal: stopReason === "refusal" };
  if (stop.action === "finish") {
    if (stop.keep) append(node, stop.keep);
    const answer = node.stops.partial().trim() || node.bestAnswer;
    return { ok: false, end: await finishNode(node, { finishReason: stop.finishReason, answer }) };
  }
  node.options.emit(makeEvent(node.who, "warning", { message: stop.reason, code: stop.code }));
  if (stop.action === "compact") {
    // A full context window: summarise the older turns first; elide old results when that cannot help.
    const compactor = node.compactor as Compactor;
    compactor.request("context_window");
    const tools = definitionsOf(node.tools);
    const compacted =
      (await compactor.maybeCompact(node.messages)) ??
      compactForRetry(node.messages, { system: node.system, tools, meter: node.meter });
    if (!compacted)
      return {
        ok: false,
        end: await finishNode(node, { finishReason: "context_window", answer: node.bestAnswer }),
      };
    node.shared.log.contextCut(node.who.agent);
    node.messages.splice(0, node.messages.length, ...compacted);
  } else {
    if (stop.keep) append(node, stop.keep);
    if (stop.note) append(node, { role: "user", content: stop.note });
    node.raiseLimit = stop.raiseLimit;
  }
  node.bestAnswer = node.stops.partial().trim() || node.bestAnswer;
  return { ok: false };
}

/** The reasoning effort of an agent's model calls: the spec's, else the tier's from config, else none. */
function reasoningEffortFor(effort: ModelRequest["reasoningEffort"]): Pick<ModelRequest, "reasoningEffort"> {
  return effort !== undefined ? { reasoningEffort: effort } : {};
}
