/**
 * Reads an HTTP response body up to a byte cap, streamed: chunks are taken one at a time and the stream is
 * cancelled as soon as the next one would pass the cap, so a body that never ends (or a 1 GiB one) costs
 * at most `maxBytes` of memory. A `Content-Length` above the cap is refused before any chunk is read.
 * `Response.text()` / `.json()` would read the whole body first; every download from outside (the model
 * catalog, OAuth metadata and token responses) goes through here instead.
 */

/** A body larger than its cap: nothing of it was kept. */
export class BodyTooLarge extends Error {
  constructor(
    readonly what: string,
    readonly maxBytes: number,
    /** Bytes read before reading stopped (or the Content-Length that refused it). */
    readonly bytesRead: number,
  ) {
    super(`${what} is larger than ${maxBytes} bytes; stopped reading at ${bytesRead} bytes`);
    this.name = "BodyTooLarge";
  }
}

/** The body's bytes, or BodyTooLarge once more than `maxBytes` arrive (`what` names it: URL, role). */
export async function readCappedBody(
  response: Response,
  maxBytes: number,
  what: string,
): Promise<Uint8Array> {
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new BodyTooLarge(what, maxBytes, declared);
  }
  if (response.body === null) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      if (total + value.byteLength > maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw new BodyTooLarge(what, maxBytes, total + value.byteLength);
      }
      chunks.push(value);
      total += value.byteLength;
    }
  } finally {
    reader.releaseLock();
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** The body as UTF-8 text, capped as readCappedBody. */
export async function readCappedText(response: Response, maxBytes: number, what: string): Promise<string> {
  return new TextDecoder().decode(await readCappedBody(response, maxBytes, what));
}
