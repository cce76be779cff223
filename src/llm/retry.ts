/**
 * The one place provider calls are retried. A retryable failure (RETRYABLE_KINDS) is retried with
 * full-jitter exponential backoff, honouring the server's retry-after (capped), but only while nothing
 * the user sees has been passed on for that request: the first text or reasoning event commits the
 * attempt, so a failure after output is final and no text is ever duplicated. Events nobody is shown
 * (tool-call starts and argument deltas, usage) are held back until the attempt commits or ends, so a
 * reply cut in the middle of a tool call is retried whole instead of failing the run (issue 22).
 *
 * An idle stream (idle_timeout) is retried only `maxIdleRetries` times (default 0): a provider that has
 * gone silent fails within (1 + maxIdleRetries) x the idle limit (60 s by default, stream-guard.ts),
 * not after five idle windows (about 5 minutes, issue 22).
 */

import type { ModelRequest, ProviderNotice, StreamEvent, StreamFn } from "../kernel/conversation/stream.ts";
import { type ProviderError, RETRYABLE_KINDS } from "../kernel/errors.ts";
import { makeProviderError } from "./errors.ts";

export interface RetryOptions {
  /** Retries after the first attempt (default 4). */
  maxRetries?: number;
  /** First backoff step (default 1000 ms); doubles per attempt. */
  baseDelayMs?: number;
  /** Cap for any single wait, backoff or retry-after (default 30 s). */
  maxDelayMs?: number;
  /** Retries after an idle_timeout, counted within maxRetries (default 0: silence is not retried). */
  maxIdleRetries?: number;
  /** Retries after a refused connection, counted within maxRetries (default: maxRetries). A local server
   * that refuses is not running: client.ts sets 1 for loopback endpoints instead of ~10 s of retries. */
  maxRefusedRetries?: number;
  /** Told about each retry before its wait. */
  onNotice?: (notice: ProviderNotice) => void;
  /** Waits `ms`; rejects when `signal` aborts. Injected by tests. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Random source in [0, 1) for the jitter. Injected by tests. */
  random?: () => number;
}

/** Waits `ms` milliseconds, rejecting early when `signal` aborts. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Error("aborted"));
    const onAbort = () => {
      clearTimeout(timer);
      reject(new Error("aborted"));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** The wait before retry number `attempt` (0-based): retry-after when given, else full jitter. */
export function retryDelay(
  attempt: number,
  error: ProviderError,
  options: Pick<RetryOptions, "baseDelayMs" | "maxDelayMs" | "random"> = {},
): number {
  const cap = options.maxDelayMs ?? 30_000;
  if (error.retryAfterMs !== undefined) return Math.min(error.retryAfterMs, cap);
  const ceiling = Math.min(cap, (options.baseDelayMs ?? 1000) * 2 ** attempt);
  return Math.floor((options.random ?? Math.random)() * ceiling);
}

/** Events the user sees as they stream; any of them commits an attempt (no retry after it). */
function isShown(event: StreamEvent): boolean {
  return event.type.startsWith("text_") || event.type === "reasoning_delta";
}

/** Wraps a stream function with retries (see the module comment). Never throws. */
export function withRetry(stream: StreamFn, options: RetryOptions = {}): StreamFn {
  const maxRetries = options.maxRetries ?? 4;
  const maxIdleRetries = options.maxIdleRetries ?? 0;
  const maxRefusedRetries = options.maxRefusedRetries ?? maxRetries;
  const sleep = options.sleep ?? abortableSleep;

  return async function* retrying(request: ModelRequest): AsyncGenerator<StreamEvent> {
    const ctx = {
      provider: request.model.provider,
      providerName: request.model.providerName,
      model: request.model.id,
    };
    let idleRetries = 0;
    let refusedRetries = 0;
    for (let attempt = 0; ; attempt++) {
      let committed = false;
      // Held back until the attempt commits or ends; dropped when it is retried.
      let held: StreamEvent[] = [];
      let retryable: ProviderError | undefined;
      try {
        for await (const event of stream(request)) {
          if (event.type === "error") {
            const idle = event.error.kind === "idle_timeout";
            const refused = event.error.connectionRefused === true;
            const canRetry =
              !committed &&
              attempt < maxRetries &&
              !(idle && idleRetries >= maxIdleRetries) &&
              !(refused && refusedRetries >= maxRefusedRetries) &&
              !request.signal?.aborted &&
              RETRYABLE_KINDS.has(event.error.kind);
            if (canRetry) {
              if (idle) idleRetries++;
              if (refused) refusedRetries++;
              retryable = event.error;
              break;
            }
            yield* held;
            yield event;
            return;
          }
          if (event.type === "done") {
            yield* held;
            yield event;
            return;
          }
          // A warning (e.g. a dropped thinking block) reports on the request; it is not output.
          if (!committed && event.type !== "warning" && !isShown(event)) {
            held.push(event);
            continue;
          }
          if (isShown(event) && !committed) {
            committed = true;
            yield* held;
            held = [];
          }
          yield event;
        }
      } catch (err) {
        // A stream function must not throw; if one does, treat it as an unknown, final failure.
        const detail = err instanceof Error ? err.message : String(err);
        yield { type: "error", error: makeProviderError(ctx, "unknown", detail) };
        return;
      }
      if (!retryable) {
        yield* held;
        yield {
          type: "error",
          error: makeProviderError(ctx, "truncated", "the stream ended without its final event"),
        };
        return;
      }
      const delayMs = retryDelay(attempt, retryable, options);
      options.onNotice?.({ type: "retry", attempt: attempt + 1, delayMs, error: retryable });
      try {
        await sleep(delayMs, request.signal);
      } catch {
        yield { type: "error", error: makeProviderError(ctx, "aborted", "while waiting to retry") };
        return;
      }
      if (request.signal?.aborted) {
        yield { type: "error", error: makeProviderError(ctx, "aborted", "while waiting to retry") };
        return;
      }
    }
  };
}
