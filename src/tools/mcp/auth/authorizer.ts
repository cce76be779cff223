/**
 * The login's half of the authorization-code flow: a loopback listener on 127.0.0.1 (RFC 8252 §7.3, the
 * redirect URI a native app uses; the MCP spec's clients follow OAuth 2.1 for it) receives the redirect
 * with the code, and a user agent takes the person to the authorization page:
 *
 * - `browser`: opens the system browser and prints the URL (a person can copy it when no browser opens);
 * - `print`: only prints the URL;
 * - `follow`: no person at all: requests the URL and follows the authorization server's redirects
 *   (same as a browser would) until they reach the loopback listener. For servers that authorize without
 *   a page to click (single sign-on already granted, test authorization servers such as the conformance
 *   suite's). A server that shows a consent page stops it with a clear error.
 *
 * Whichever user agent, the code arrives the same way: at the listener, checked against the `state` the
 * authorization request carried.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export type UserAgent = "browser" | "print" | "follow";

/** Takes one authorization URL to a user agent and hands back the code the redirect carried. */
export interface Authorizer {
  readonly redirectUrl: string;
  /** A fresh `state` for the next authorization request. */
  newState(): string;
  /**
   * Sends the user agent to `url` (only `https:`, or `http:` on a loopback host: anything else is refused
   * with an error and nothing is opened) and returns at once: the person's time is not spent inside an
   * MCP request (whose timeout is `startup_timeout_ms`). `waitForCode()` then waits for the redirect.
   */
  authorize(url: URL): Promise<void>;
  /** The code of the authorization started last, once it arrives (up to the login's window, default
   * 5 minutes); undefined when none was started. */
  waitForCode(): Promise<string | undefined>;
  close(): Promise<void>;
}

export interface AuthorizerOptions {
  userAgent: UserAgent;
  /** Where the URL and progress are shown (stderr), one line per call. */
  print: (line: string) => void;
  /** A fixed port (config `callback_port`); default a random free one. */
  port?: number;
  signal: AbortSignal;
  /** How long to wait for the person (default 5 minutes). */
  timeoutMs?: number;
  /** The environment the system opener runs with (its PATH finds `xdg-open`); default process.env. */
  env?: Record<string, string | undefined>;
}

/** Redirects `follow` accepts before giving up (a browser allows about 20). */
const MAX_HOPS = 20;
const CALLBACK_PATH = "/callback";

/** Starts the loopback listener; close() it when the login is over. */
export async function createLoopbackAuthorizer(options: AuthorizerOptions): Promise<Authorizer> {
  let expectedState: string | undefined;
  let waiting: { resolve: (code: string) => void; reject: (error: Error) => void } | undefined;
  let pending: Promise<string> | undefined;
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname !== CALLBACK_PATH) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
      return;
    }
    const answer = (status: number, text: string) =>
      res.writeHead(status, { "content-type": "text/plain; charset=utf-8" }).end(`${text}\n`);
    const error = url.searchParams.get("error");
    if (url.searchParams.get("state") !== expectedState || waiting === undefined) {
      answer(
        400,
        "This authorization response was not expected (state does not match). Start the login again.",
      );
      return;
    }
    if (error !== null) {
      const description = url.searchParams.get("error_description");
      answer(400, `Authorization failed: ${error}. You can close this page.`);
      waiting.reject(
        new Error(`the authorization server answered ${error}${description ? `: ${description}` : ""}`),
      );
      return;
    }
    const got = url.searchParams.get("code");
    if (!got) {
      answer(400, "The redirect carried no code.");
      waiting.reject(new Error("the authorization server redirected without a code"));
      return;
    }
    answer(200, "Authorized. You can close this page and return to the terminal.");
    waiting.resolve(got);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) =>
      reject(
        error.code === "EADDRINUSE"
          ? new Error(`callback_port ${options.port} is in use; free it or choose another`)
          : error,
      ),
    );
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const redirectUrl = `http://127.0.0.1:${port}${CALLBACK_PATH}`;
  const timeoutMs = options.timeoutMs ?? 5 * 60_000;

  return {
    redirectUrl,
    newState() {
      expectedState = randomBytes(16).toString("base64url");
      return expectedState;
    },
    async authorize(url: URL) {
      refuseUnsafeAuthorizationUrl(url);
      let settle: { resolve: (code: string) => void; reject: (error: Error) => void } | undefined;
      const received = new Promise<string>((resolve, reject) => {
        settle = { resolve, reject };
      });
      waiting = settle;
      const timer = setTimeout(
        () => waiting?.reject(new Error(`no authorization arrived within ${Math.round(timeoutMs / 1000)} s`)),
        timeoutMs,
      );
      const onAbort = () => waiting?.reject(new Error("the login was interrupted"));
      options.signal.addEventListener("abort", onAbort, { once: true });
      pending = received.finally(() => {
        clearTimeout(timer);
        options.signal.removeEventListener("abort", onAbort);
        waiting = undefined;
      });
      // Awaited by waitForCode(); marked handled here so a refusal before then is not an unhandled rejection.
      pending.catch(() => undefined);
      if (options.userAgent === "follow") {
        followRedirects(url, redirectUrl, options.signal).catch((error: Error) => waiting?.reject(error));
      } else {
        options.print("Open this URL to authorize:");
        options.print(`  ${url.href}`);
        if (options.userAgent === "browser") openBrowser(url.href, options.print, options.env ?? process.env);
        options.print(`Waiting for the authorization to come back to ${redirectUrl} …`);
      }
    },
    async waitForCode() {
      const started = pending;
      pending = undefined;
      return started === undefined ? undefined : await started;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The `follow` user agent: GETs the authorization URL and each Location after it, as a browser would,
 * until a redirect points at our listener (which then receives the code). A page instead of a redirect
 * needs a person: an error that says so.
 */
async function followRedirects(start: URL, redirectUrl: string, signal: AbortSignal): Promise<void> {
  let url = start;
  for (let hop = 0; hop <= MAX_HOPS; hop++) {
    const response = await fetch(url, { redirect: "manual", signal });
    await response.body?.cancel();
    if (url.href.startsWith(redirectUrl)) return;
    const location = response.headers.get("location");
    if (response.status < 300 || response.status >= 400 || location === null) {
      throw new Error(
        `the authorization page at ${url.origin} answered HTTP ${response.status} instead of redirecting back: it needs a person; run agent mcp login without --headless`,
      );
    }
    url = new URL(location, url);
    if (!url.href.startsWith(redirectUrl)) refuseUnsafeAuthorizationUrl(url);
  }
  throw new Error(`the authorization server redirected more than ${MAX_HOPS} times`);
}

/** An authorization URL the login will not open (its message says which and why). */
export class UnsafeAuthorizationUrl extends Error {
  override name = "UnsafeAuthorizationUrl";
}

/** Host names that are this machine (RFC 8252 §8.3 names the loopback literals; `localhost` resolves there). */
const LOOPBACK = new Set(["127.0.0.1", "[::1]", "localhost"]);

/**
 * Only `https:` authorization pages are opened, or `http:` on this machine (a local test server): the
 * metadata naming the page comes from the server, and the OS opener would hand any other scheme to
 * whatever handles it (`smb://` mounts a share, `file:` opens a local program's file).
 */
export function refuseUnsafeAuthorizationUrl(url: URL): void {
  if (url.protocol === "https:") return;
  if (url.protocol === "http:" && LOOPBACK.has(url.hostname)) return;
  throw new UnsafeAuthorizationUrl(
    `the server's authorization URL ${url.protocol}//${url.host}${url.pathname} is not https: refusing to open it (only https:, or http: on 127.0.0.1/localhost, is opened)`,
  );
}

/**
 * Opens `url` in the system browser when there is one; a failure only leaves the printed URL. The URL is
 * one argument of a program started without a shell. On Windows that program is
 * `rundll32 url.dll,FileProtocolHandler URL` (the form Go programs use, e.g. alexpevzner/froxy
 * `openurl_windows.go`), not `cmd /c start "" URL`: cmd.exe parses its command line itself, so an `&` in
 * the URL would end the `start` command and run what follows (cmd "does interpret flow control stuff like
 * & and &&", https://github.com/nodejs/node/issues/29532), whatever quoting spawn() applies.
 */
function openBrowser(
  url: string,
  print: (line: string) => void,
  env: Record<string, string | undefined>,
): void {
  const [program, ...args]: [string, ...string[]] =
    process.platform === "darwin"
      ? ["open", url]
      : process.platform === "win32"
        ? ["rundll32", "url.dll,FileProtocolHandler", url]
        : ["xdg-open", url];
  try {
    const child = spawn(program, args, { stdio: "ignore", detached: true, env, shell: false });
    child.on("error", () => print("(no browser could be opened: open the URL above yourself)"));
    child.unref();
  } catch {
    print("(no browser could be opened: open the URL above yourself)");
  }
}
