/**
 * An HTTP server on 127.0.0.1 that answers every request with a body that never ends (or ends after
 * `totalBytes`), written only as fast as the client reads (each write waits for `drain`), and counts the
 * bytes it handed to the socket. A client that stops reading at its cap leaves `served()` near that cap;
 * one that reads the whole body drives it to `totalBytes`. No Content-Length, so only reading can stop it.
 */
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface EndlessServer {
  url: string;
  /** Bytes written to all responses so far. */
  served(): number;
  /** Resolves once every response has ended or its client has gone. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

const CHUNK = Buffer.alloc(256 * 1024, "a");

export async function startEndlessServer(
  options: { totalBytes?: number; contentType?: string; prefix?: string } = {},
): Promise<EndlessServer> {
  let served = 0;
  let open = 0;
  let waiters: (() => void)[] = [];
  const settle = () => {
    if (open > 0) return;
    for (const resolve of waiters.splice(0)) resolve();
  };
  const server: Server = createServer((_req, res) => {
    open++;
    let gone = false;
    res.on("close", () => {
      gone = true;
      open--;
      settle();
    });
    res.writeHead(200, { "content-type": options.contentType ?? "application/json" });
    const pump = async () => {
      if (options.prefix) {
        res.write(options.prefix);
        served += Buffer.byteLength(options.prefix);
      }
      while (!gone && (options.totalBytes === undefined || served < options.totalBytes)) {
        const more = res.write(CHUNK);
        served += CHUNK.byteLength;
        if (!more) await drainOrClose(res);
      }
      if (!gone) res.end();
    };
    void pump();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    served: () => served,
    idle: () =>
      open === 0
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            waiters.push(resolve);
          }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
        waiters = [];
      }),
  };
}

/** Resolves at the response's next `drain` or its `close`, leaving no listener behind. */
function drainOrClose(res: ServerResponse): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}
