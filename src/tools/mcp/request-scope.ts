/**
 * Ties an MCP request to the run's abort signal only while it is in flight.
 *
 * Why: the SDK's Protocol.request adds an "abort" listener to the signal it is given and never removes
 * it (node_modules/@modelcontextprotocol/sdk/dist/esm/shared/protocol.js, `request`:
 * `options?.signal?.addEventListener('abort', () => cancel(...))`, where `cancel` sends
 * `notifications/cancelled`). Handing it the run's signal made Ctrl-C or --timeout send a cancellation
 * for every request ever made, `initialize` included. Each request now gets its own signal, unlinked
 * from the run's once the request settles, so only requests still in flight are cancelled.
 */

/** Runs `send` with a signal that aborts when `signal` does, but only until `send` settles. */
export async function inFlight<T>(signal: AbortSignal, send: (own: AbortSignal) => Promise<T>): Promise<T> {
  const own = new AbortController();
  const forward = (): void => own.abort(signal.reason);
  if (signal.aborted) forward();
  else signal.addEventListener("abort", forward, { once: true });
  try {
    return await send(own.signal);
  } finally {
    signal.removeEventListener("abort", forward);
  }
}

/**
 * Waits for `promise` unless `signal` aborts first (then rejects with the abort reason), without telling
 * the server anything. For `initialize`, which the MCP spec says a client must never cancel
 * (modelcontextprotocol.io specification 2025-06-18, basic/utilities/cancellation: "The initialize
 * request MUST NOT be cancelled by clients"): the caller closes the connection instead.
 */
export function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/**
 * Signals for what a server asks of us while it works (an elicitation's form, a sampling call): such a
 * request ends when the server cancels it, when a tool call in flight is aborted (the run's Ctrl-C or
 * --timeout: the MCP spec's `cancel` for a form the user never answered), or when the connection closes
 * (the run ended), so a form never outlives the run that led to it.
 */
export class ServerRequestScope {
  private readonly calls = new Set<AbortSignal>();
  private readonly closing = new AbortController();

  /** Runs one tool call; while it runs, its signal also ends the server's requests. */
  async during<T>(signal: AbortSignal, work: () => Promise<T>): Promise<T> {
    this.calls.add(signal);
    try {
      return await work();
    } finally {
      this.calls.delete(signal);
    }
  }

  /** A signal for one server request that `server` (the SDK's, aborted when the server cancels) started. */
  signalFor(server: AbortSignal): AbortSignal {
    return AbortSignal.any([server, this.closing.signal, ...this.calls]);
  }

  close(): void {
    this.closing.abort(new Error("the MCP connection closed"));
  }
}
