/**
 * Guards a provider stream so it always ends with exactly one terminal event and never hangs:
 * a stream that ends without `done`/`error` becomes a `truncated` error; one that produces nothing for
 * `idleTimeoutMs` becomes an `idle_timeout` error (and the underlying request is aborted); the caller's
 * abort ends it with `aborted` at once.
 */

import type { AssistantMessage, AssistantPart } from "../kernel/conversation/messages.ts";
import type { ModelRequest, StreamEvent, StreamFn } from "../kernel/conversation/stream.ts";
import type { ProviderErrorKind } from "../kernel/errors.ts";
import { makeProviderError } from "./errors.ts";

/** Default idle limit between two events (and before the first one). Silence is not retried
 * (retry.ts), so this is also how long a silent provider can hold a run: about a minute. */
export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;

export interface StreamGuardOptions {
  idleTimeoutMs?: number;
  /** Provider instance name for messages; defaults to the request's `model.providerName`. */
  providerName?: string;
}

/** Rebuilds the partial message from the events seen, for errors the guard raises itself. */
class PartialTracker {
  private readonly parts = new Map<number, AssistantPart>();

  constructor(private readonly request: ModelRequest) {}

  see(event: StreamEvent): void {
    if (event.type === "text_delta") {
      const part = this.parts.get(event.index);
      this.parts.set(event.index, {
        type: "text",
        text: (part?.type === "text" ? part.text : "") + event.delta,
      });
    } else if (event.type === "reasoning_delta") {
      const part = this.parts.get(event.index);
      const text = (part?.type === "reasoning" ? part.text : "") + event.delta;
      this.parts.set(event.index, { type: "reasoning", text, provider: this.request.model.provider });
    } else if (event.type === "tool_call_end") {
      this.parts.set(event.index, { type: "tool_call", ...event.call });
    }
  }

  message(): AssistantMessage {
    const parts = [...this.parts.entries()].sort((a, b) => a[0] - b[0]).map(([, part]) => part);
    return { role: "assistant", parts };
  }
}

type Step = { kind: "event"; result: IteratorResult<StreamEvent> } | { kind: "idle" } | { kind: "aborted" };

/** Wraps a stream function with the truncation, idle and abort guards. */
export function withStreamGuard(inner: StreamFn, options: StreamGuardOptions = {}): StreamFn {
  const idleMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;

  return async function* guarded(request: ModelRequest): AsyncGenerator<StreamEvent> {
    const controller = new AbortController();
    const callerSignal = request.signal;
    const forward = () => controller.abort(callerSignal?.reason);
    if (callerSignal?.aborted) forward();
    else callerSignal?.addEventListener("abort", forward, { once: true });
    const aborted = new Promise<Step>((resolve) => {
      if (controller.signal.aborted) resolve({ kind: "aborted" });
      else controller.signal.addEventListener("abort", () => resolve({ kind: "aborted" }), { once: true });
    });
    const ctx = {
      provider: request.model.provider,
      providerName: options.providerName ?? request.model.providerName,
      model: request.model.id,
    };
    const tracker = new PartialTracker(request);
    const fail = (kind: ProviderErrorKind, detail: string): StreamEvent => ({
      type: "error",
      error: makeProviderError(ctx, kind, detail),
      partial: tracker.message(),
    });

    let iterator: AsyncIterator<StreamEvent> | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let finished = false;
    try {
      iterator = inner({ ...request, signal: controller.signal })[Symbol.asyncIterator]();
      while (true) {
        const idle = new Promise<Step>((resolve) => {
          timer = setTimeout(() => resolve({ kind: "idle" }), idleMs);
        });
        const next = iterator.next().then((result): Step => ({ kind: "event", result }));
        const step = await Promise.race([next, idle, aborted]);
        clearTimeout(timer);
        if (step.kind !== "event") {
          next.catch(() => {}); // The inner stream is abandoned; its late failure is of no interest.
          if (step.kind === "idle") {
            controller.abort();
            yield fail(
              "idle_timeout",
              `no data for ${idleMs} ms (AGENT_IDLE_TIMEOUT_MS or config defaults.provider_idle_timeout_ms sets how long to wait for a silent provider)`,
            );
          } else {
            yield fail("aborted", "");
          }
          return;
        }
        if (step.result.done) {
          yield fail("truncated", "the stream ended without its final event");
          return;
        }
        const event = step.result.value;
        tracker.see(event);
        yield event;
        if (event.type === "done" || event.type === "error") {
          finished = true;
          return;
        }
      }
    } catch (err) {
      yield fail("unknown", err instanceof Error ? err.message : String(err));
    } finally {
      clearTimeout(timer);
      callerSignal?.removeEventListener("abort", forward);
      // Stop the inner stream (and its request) when we end early or the consumer stops reading.
      if (!finished) controller.abort();
      iterator?.return?.().catch(() => {});
    }
  };
}
