/**
 * Runs a grep search in a worker bounded by time and by the call's abort signal: on either, the worker is
 * terminated and the call returns at once, whatever the regular expression engine is doing.
 */
import type { GrepReply, GrepRequest } from "./grep-search.ts";

/** How long one grep search may run by default. */
export const GREP_TIME_LIMIT_MS = 30_000;

export type SearchOutcome =
  | { kind: "done"; reply: GrepReply }
  | { kind: "timeout" }
  | { kind: "aborted" }
  | { kind: "failed"; message: string };

type WorkerAnswer = { ok: true; reply: GrepReply } | { ok: false; message: string };

export function runSearch(
  request: GrepRequest,
  options: { signal: AbortSignal; timeoutMs: number },
): Promise<SearchOutcome> {
  if (options.signal.aborted) return Promise.resolve({ kind: "aborted" });
  return new Promise((resolve) => {
    const worker = new Worker(new URL("./grep-worker.ts", import.meta.url));
    let settled = false;
    const finish = (outcome: SearchOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal.removeEventListener("abort", onAbort);
      worker.terminate();
      resolve(outcome);
    };
    const onAbort = () => finish({ kind: "aborted" });
    const timer = setTimeout(() => finish({ kind: "timeout" }), options.timeoutMs);
    options.signal.addEventListener("abort", onAbort, { once: true });
    worker.onmessage = (event: MessageEvent<WorkerAnswer>) => {
      const answer = event.data;
      finish(answer.ok ? { kind: "done", reply: answer.reply } : { kind: "failed", message: answer.message });
    };
    worker.onerror = (event: ErrorEvent) => finish({ kind: "failed", message: event.message });
    worker.postMessage(request);
  });
}
