/**
 * The fetch an HTTP server's transport is given (StreamableHTTPClientTransport's `fetch` option; the SDK
 * also hands it to auth() as `fetchFn`, so discovery, registration and token requests go through it too).
 * Around the plain fetch it:
 *
 * - reads every OAuth answer (protected-resource and authorization-server metadata, registration, token)
 *   and every error answer of the MCP endpoint streamed with a cap (kernel/net/capped-body.ts): the SDK
 *   would `response.json()` a body that never ends;
 * - tells `onSecrets` every credential before it can come back in an answer: the `Authorization` value of
 *   each request (a bearer token, client-credentials tokens included; a Basic client secret) and the tokens
 *   of each token response, so the session's redactor knows them before a tool result or an error
 *   repeats them;
 * - runs a refresh (`grant_type=refresh_token`) under the lock of the server's token record, re-reading
 *   it first: when another run has refreshed meanwhile (the stored refresh token is no longer the one
 *   sent; a server that rotates refresh tokens would refuse the old one, RFC 6749 §10.4 / OAuth 2.1
 *   §4.3.1 "refresh token rotation"), the stored tokens are the answer and nothing is sent; otherwise the
 *   new tokens are written before the lock is released, so a second run waiting for the lock finds them.
 */
import type { OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { readCappedBody } from "../../../kernel/net/capped-body.ts";
import type { SecretSink } from "./oauth-provider.ts";
import { loadAuthRecord, saveAuthRecord, withAuthRecordLock } from "./token-store.ts";

/** Metadata documents and token answers are a few kilobytes; 1 MiB is far past any real one. */
export const OAUTH_BODY_CAP = 1024 * 1024;

export interface OAuthFetchOptions {
  /** The MCP endpoint (its successful answers are the transport's streams: passed on as they come). */
  endpoint: string;
  onSecrets: SecretSink;
  /** The stored record a refresh is serialized on; undefined for client credentials (nothing stored). */
  record?: { serverUrl: string; env: Record<string, string | undefined> };
  /** Sees each answer of the endpoint itself (for naming a failure, counting a refused scope), before
   * the SDK acts on it. */
  onEndpointAnswer?: (response: Response, init: RequestInit | undefined) => void | Promise<void>;
}

export function oauthFetch(
  options: OAuthFetchOptions,
): (input: string | URL, init?: RequestInit) => Promise<Response> {
  return async (input, init) => {
    const url = new URL(String(input));
    const authorization = new Headers(init?.headers).get("authorization");
    if (authorization) options.onSecrets(credentialValues(authorization));
    if (url.href === options.endpoint) {
      const response = await fetch(input, init);
      await options.onEndpointAnswer?.(response, init);
      return response.ok ? response : capped(response, `the answer of ${url.href}`);
    }
    const form = init?.body instanceof URLSearchParams ? init.body : undefined;
    // A client secret sent in the body (client_secret_post) or a signed assertion (private_key_jwt).
    const inForm = ["client_secret", "client_assertion"].map((k) => form?.get(k)).filter((v) => v != null);
    if (inForm.length > 0) options.onSecrets(inForm);
    const refreshToken = form?.get("grant_type") === "refresh_token" ? form.get("refresh_token") : null;
    if (refreshToken !== null && options.record !== undefined) {
      return refreshUnderLock(input, init, refreshToken, options.record, options.onSecrets);
    }
    const response = await capped(await fetch(input, init), `the answer of ${url.href}`);
    if (form?.has("grant_type")) await reportTokens(response, options.onSecrets);
    return response;
  };
}

async function refreshUnderLock(
  input: string | URL,
  init: RequestInit | undefined,
  sent: string,
  record: NonNullable<OAuthFetchOptions["record"]>,
  onSecrets: SecretSink,
): Promise<Response> {
  return withAuthRecordLock(record.serverUrl, record.env, async () => {
    const current = await loadAuthRecord(record.serverUrl, record.env);
    const stored = current.tokens;
    if (stored?.refresh_token !== undefined && stored.refresh_token !== sent) {
      // Refreshed by another run while this one waited: its tokens, as a token endpoint would answer.
      const { issuer: _issuer, ...answer } = stored as OAuthTokens & { issuer?: unknown };
      onSecrets(tokenValues(answer));
      return Response.json(answer);
    }
    const response = await capped(await fetch(input, init), `the answer of ${String(input)}`);
    const tokens = await reportTokens(response, onSecrets);
    if (response.ok && tokens !== undefined) {
      // The SDK saves them too (saveTokens, with the issuer it checked); written here first, under the
      // lock, so a run waiting for it reads these. A server that keeps the refresh token omits it.
      const issuer = (stored as { issuer?: unknown } | undefined)?.issuer;
      const saved = { ...tokens, refresh_token: tokens.refresh_token ?? sent, ...(issuer ? { issuer } : {}) };
      await saveAuthRecord({ ...current, tokens: saved as OAuthTokens }, record.env);
    }
    return response;
  });
}

/** The response with its body read under the cap (a copy the caller can read once). */
async function capped(response: Response, what: string): Promise<Response> {
  const body = await readCappedBody(response, OAUTH_BODY_CAP, what);
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/** The tokens of a token endpoint's JSON answer (reported to `onSecrets`), or undefined. */
async function reportTokens(response: Response, onSecrets: SecretSink): Promise<OAuthTokens | undefined> {
  try {
    const parsed = (await response.clone().json()) as unknown;
    if (typeof parsed !== "object" || parsed === null) return undefined;
    const values = tokenValues(parsed as Record<string, unknown>);
    onSecrets(values);
    return "access_token" in parsed ? (parsed as OAuthTokens) : undefined;
  } catch {
    return undefined;
  }
}

function tokenValues(answer: Record<string, unknown>): string[] {
  return ["access_token", "refresh_token", "id_token"]
    .map((key) => answer[key])
    .filter((v): v is string => typeof v === "string");
}

/** An Authorization value and its credential alone (`Bearer X` → X; `Basic B64` → B64). */
function credentialValues(authorization: string): string[] {
  const bare = authorization.replace(/^\S+\s+/, "");
  return bare === authorization ? [authorization] : [authorization, bare];
}
