import {
  type AgentIdentity,
  type AssistantMessage,
  type EmitFn,
  emptyUsage,
  type ModelRef,
  type ModelRequest,
  makeEvent,
  type ProviderError,
  type StopReason,
  type StreamFn,
  type Usage,
} from "../../kernel/index.ts";

/** One model call streamed (plan.ts for a turn, compaction.ts for a summary): a leaf both use. */

/** What a model call gave: the reply, or the provider's error with any partial reply. */
export type PlanOutcome =
  | {
      ok: true;
      message: AssistantMessage;
      usage: Usage;
      stopReason: StopReason;
      model: string;
      /** A later fallback candidate that answered instead of the requested model. */
      servedBy?: ModelRef;
    }
  | { ok: false; error: ProviderError; partial?: AssistantMessage; usage: Usage };

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
            ...(event.servedBy ? { servedBy: event.servedBy } : {}),
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
