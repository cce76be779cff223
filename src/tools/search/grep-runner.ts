/**
 * Runs a grep search in a worker bounded by time and by the call's abort signal: on either, the worker is
 * terminated and the call returns at once, whatever the regular expression engine is doing.
 */
import type { GrepProgress, GrepReply, GrepRequest } from "./grep-search.ts";

/** Where the compiled binary keeps its entrypoints: Bun's embedded filesystem, by path below src/. */
const EMBEDDED_ROOT = "/$bunfs/root/";

/**
 * The worker module's URL seen from `moduleUrl` (this module's import.meta.url): next to this file when
 * running from source; in a binary from `bun run build` (which lists grep-worker.ts as an entrypoint), at
 * tools/search/grep-worker.ts under the embedded root, since this code sits in a chunk at the root itself. Never a
 * path relative to the working directory: that would load a workspace's file.
 */
export function workerUrl(moduleUrl: string): URL {
  const at = moduleUrl.indexOf(EMBEDDED_ROOT);
  if (at < 0) return new URL("./grep-worker.ts", moduleUrl);
  return new URL("tools/search/grep-worker.ts", moduleUrl.slice(0, at + EMBEDDED_ROOT.length));
}

/** How long one grep search may run by default. */
export const GREP_TIME_LIMIT_MS = 30_000;

export type SearchOutcome =
  | { kind: "done"; reply: GrepReply }
  /** The time limit stopped it; `progress` is the last the worker reported. */
  | { kind: "timeout"; progress: GrepProgress }
  | { kind: "aborted" }
  | { kind: "failed"; message: string };

type WorkerAnswer =
  | { ok: true; reply: GrepReply }
  | { ok: false; message: string }
  | { ok?: undefined; progress: GrepProgress };

export function runSearch(
  request: GrepRequest,
  options: { signal: AbortSignal; timeoutMs: number },
): Promise<SearchOutcome> {
  if (options.signal.aborted) return Promise.resolve({ kind: "aborted" });
  return new Promise((resolve) => {
    const worker = new Worker(workerUrl(import.meta.url));
    let settled = false;
    let progress: GrepProgress = { listed: 0, searched: 0, matches: 0 };
    const finish = (outcome: SearchOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal.removeEventListener("abort", onAbort);
      worker.terminate();
      resolve(outcome);
    };
    const onAbort = () => finish({ kind: "aborted" });
    const timer = setTimeout(() => finish({ kind: "timeout", progress }), options.timeoutMs);
    options.signal.addEventListener("abort", onAbort, { once: true });
    worker.onmessage = (event: MessageEvent<WorkerAnswer>) => {
      const answer = event.data;
      if (answer.ok === undefined) {
        progress = answer.progress;
        return;
      }
      finish(answer.ok ? { kind: "done", reply: answer.reply } : { kind: "failed", message: answer.message });
    };
    worker.onerror = (event: ErrorEvent) => finish({ kind: "failed", message: event.message });
    worker.postMessage(request);
  });
}
