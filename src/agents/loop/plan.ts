import {
  type AgentIdentity,
  type AssistantMessage,
  assistantToolCalls,
  type EmitFn,
  emptyUsage,
  type ModelRequest,
  makeEvent,
  type ProviderError,
  type StopReason,
  type StreamFn,
  type Usage,
} from "../../kernel/index.ts";

/**
 * Plan: one model call. Streams text deltas out as events and returns the assistant message, or the
 * provider's error. Never throws: a stream that throws or ends without a terminal event is an error.
 */

export type PlanOutcome =
  | { ok: true; message: AssistantMessage; usage: Usage; stopReason: StopReason; model: string }
  | { ok: false; error: ProviderError; partial?: AssistantMessage; usage: Usage };

export async function planTurn(
  request: ModelRequest,
  stream: StreamFn,
  who: AgentIdentity,
  emit: EmitFn,
  turn: number,
): Promise<PlanOutcome> {
  emit(makeEvent(who, "plan_start", { turn, model: request.model.id }));
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

/** One model call, its text deltas emitted as events; the reply or the provider's error. Never throws. */
export async function streamReply(
  request: ModelRequest,
  stream: StreamFn,
  who: AgentIdentity,
  emit: EmitFn,
): Promise<PlanOutcome> {
  let usage = emptyUsage();
  const fail = (kind: ProviderError["kind"], message: string): PlanOutcome => ({
    ok: false,
    error: { kind, message, provider: request.model.provider, model: request.model.id },
    usage,
  });
  try {
    for await (const event of stream(request)) {
      switch (event.type) {
        case "text_delta":
          if (event.delta) emit(makeEvent(who, "text_delta", { delta: event.delta }));
          break;
        // Reasoning is progress for the user (e.g. Sonnet 5.5's notes between tool calls), never the answer.
        case "reasoning_delta":
          if (event.delta) emit(makeEvent(who, "reasoning_delta", { delta: event.delta }));
          break;
        case "warning":
          emit(makeEvent(who, "warning", { message: event.message, code: event.code }));
          break;
        case "usage":
          usage = event.usage;
          break;
        case "done":
          return {
            ok: true,
            message: event.message,
            usage: event.usage,
            stopReason: event.stopReason,
            model: event.model,
          };
        case "error":
          return event.partial
            ? { ok: false, error: event.error, partial: event.partial, usage }
            : { ok: false, error: event.error, usage };
        default:
          break;
      }
    }
  } catch (error) {
    if (request.signal?.aborted) return fail("aborted", "the model call was aborted");
    return fail(
      "unknown",
      `the provider stream threw: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (request.signal?.aborted) return fail("aborted", "the model call was aborted");
  return fail("truncated", `the stream from ${request.model.id} ended without a terminal event`);
}
