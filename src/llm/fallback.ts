/**
 * The fallback chain: when a model is overloaded or out of quota before it produced anything, the
 * next candidate of its tier (`ref.fallbacks`) gets the same request, and the switch is reported.
 */
import {
  FALLBACK_KINDS,
  type ModelRef,
  type ModelRequest,
  type ProviderNotice,
  type StreamEvent,
  type StreamFn,
} from "../kernel/index.ts";

/** The ref without its fallback list (what a notice names). */
function bare(ref: ModelRef): ModelRef {
  return { provider: ref.provider, providerName: ref.providerName, id: ref.id };
}

/**
 * Wraps per-model stream functions in a fallback chain. `streamFor(ref)` returns the stream function
 * for one candidate (typically retry-wrapped). Only a terminal error of a FALLBACK_KINDS kind that
 * arrives before any other event moves on; everything else passes through unchanged. Never throws.
 */
export function withFallback(
  streamFor: (ref: ModelRef) => StreamFn,
  onNotice: (notice: ProviderNotice) => void = () => {},
): StreamFn {
  return async function* fallbackStream(request: ModelRequest): AsyncGenerator<StreamEvent> {
    const chain = [bare(request.model), ...(request.model.fallbacks ?? []).map(bare)];
    for (let i = 0; i < chain.length; i++) {
      const current = chain[i];
      if (!current) break;
      const rest = chain.slice(i + 1);
      const model: ModelRef = rest.length > 0 ? { ...current, fallbacks: rest } : current;
      let emitted = false;
      let next: ModelRef | undefined;
      try {
        for await (const event of streamFor(current)({ ...request, model })) {
          const nextCandidate = rest[0];
          if (
            event.type === "error" &&
            !emitted &&
            nextCandidate !== undefined &&
            FALLBACK_KINDS.has(event.error.kind) &&
            !request.signal?.aborted
          ) {
            onNotice({ type: "fallback", from: current, to: nextCandidate, error: event.error });
            next = nextCandidate;
            break;
          }
          emitted = true;
          // The answer of a later candidate says which one it was (the loop bills and names it).
          yield i > 0 && event.type === "done" ? { ...event, servedBy: current } : event;
        }
      } catch (error) {
        // A stream function must not throw; if one does, end with a terminal error all the same.
        yield {
          type: "error",
          error: {
            kind: "unknown",
            message: `${current.providerName} ${current.id}: ${error instanceof Error ? error.message : String(error)}`,
            provider: current.provider,
            model: current.id,
          },
        };
        return;
      }
      if (next === undefined) return;
    }
  };
}
