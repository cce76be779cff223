import type { ChildCounters } from "../sub-agents.ts";
import type { RunLog } from "./activity-log.ts";
import type { UsageTracker } from "./usage-tracker.ts";

/**
 * Small pieces of run bookkeeping shared by the loop (run-loop.ts, setup.ts): what a session shares between
 * its runs, and the abort/timeout signal of one run (how a run finishes: finish.ts, run-loop.ts finishRun).
 */

/** State shared by every run of one session (created by the root run, passed down to children). */
export interface SessionShared {
  sessionId?: string;
  tracker: UsageTracker;
  counters: ChildCounters;
  /** Turns, tool calls, denials and stumbles of every agent of the session. */
  log: RunLog;
}

/**
 * The signal of one run: aborts when the parent's signal does, or when the run's own timeout passes
 * (then `timedOut` is true). `dispose` clears the timer and the listener.
 */
export function runSignal(
  parent: AbortSignal | undefined,
  timeoutMs: number,
): { signal: AbortSignal; timedOut: () => boolean; dispose: () => void } {
  const controller = new AbortController();
  let timedOut = false;
  const onParentAbort = (): void => controller.abort(parent?.reason);
  if (parent?.aborted) controller.abort(parent.reason);
  else parent?.addEventListener("abort", onParentAbort, { once: true });
  const timer =
    Number.isFinite(timeoutMs) && timeoutMs > 0
      ? setTimeout(() => {
          timedOut = true;
          controller.abort(new Error(`timeout after ${timeoutMs} ms`));
        }, timeoutMs)
      : undefined;
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    dispose: () => {
      if (timer) clearTimeout(timer);
      parent?.removeEventListener("abort", onParentAbort);
    },
  };
}
