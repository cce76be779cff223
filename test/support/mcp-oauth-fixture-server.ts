/**
 * An OAuth-protected MCP server for tests, built from the official SDK's own server parts (no mocks):
 * `mcpAuthRouter` (authorization-server metadata, dynamic registration, authorize, token, and the
 * protected-resource metadata) with the SDK's `DemoInMemoryAuthProvider`, which approves every
 * authorization request at once by redirecting back with a code (so a headless login completes), and
 * `requireBearerAuth` in front of a streamable-HTTP MCP endpoint (one transport per session, DELETE ends
 * one). Listens on 127.0.0.1 (ephemeral port; first stdout line `listening URL`).
 *
 * Every request is appended to $FIXTURE_LOG as a JSON line {method, path, authorization}, so a test can
 * see what reached this server. With FIXTURE_OPEN=1 the endpoint asks for no token (a server that must
 * never receive another server's token). With FIXTURE_STEP_UP_SCOPE, a tools/call needs that scope too and
 * is answered `403 insufficient_scope` naming it (the spec's scope challenge) until a token carries it;
 * with FIXTURE_STEP_UP_NEVER=1 too, also when it does (a step-up that never succeeds, as conformance
 * `auth/scope-retry-limit`'s server: "Scope upgrade will never succeed").
 * Tokens come with a refresh token; with FIXTURE_REVOKE_ON_DELETE=1 the access token a session used stops
 * working when that session is closed with DELETE, so the next client must refresh (the refresh grant
 * is this fixture's addition: the SDK's demo provider has none). With FIXTURE_REVOKE_ON_DELETE=first only
 * the first session's token is revoked (the login's): runs that share one refreshed token afterwards are
 * not cut off when one of them closes its session first.
 * With FIXTURE_ROTATE_REFRESH=1 each refresh issues a new refresh token and the one used stops working
 * (refresh token rotation, OAuth 2.1 §4.3.1). FIXTURE_REFRESH_AFTER_401S=N holds every refresh until the
 * MCP endpoint has answered 401 N times: N runs that start with a revoked token all meet their 401 before
 * any refresh is answered, so their refreshes overlap. With FIXTURE_ECHO_AUTH=1 the tool `whoami` answers the request's bearer
 * token and the tool `crash` is answered HTTP 500 with a body repeating the request's headers (a server
 * that leaks the token back). FIXTURE_AUTHORIZATION_ENDPOINT replaces the `authorization_endpoint` the
 * metadata names (a hostile server's `smb://…` or `file:`). With FIXTURE_ENDLESS_METADATA=1 the
 * protected-resource metadata is a body that never ends; the bytes written before the client went away
 * are logged as {endless_bytes}.
 * Tools: echo (and whoami, crash above).
 */
import { randomUUID } from "node:crypto";
import { appendFileSync } from "node:fs";
import { DemoInMemoryAuthProvider } from "@modelcontextprotocol/sdk/examples/server/demoInMemoryOAuthProvider.js";
import { InvalidGrantError, InvalidTokenError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import { requireBearerAuth } from "@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js";
import {
  getOAuthProtectedResourceMetadataUrl,
  mcpAuthRouter,
} from "@modelcontextprotocol/sdk/server/auth/router.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { OAuthClientInformationFull, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import express from "express";
import { z } from "zod";

/** FIXTURE_REVOKE_ON_DELETE=first: whether the first session's token was revoked already. */
let revokedFirst = false;
const open = process.env.FIXTURE_OPEN === "1";
const stepUp = process.env.FIXTURE_STEP_UP_SCOPE;
const log = process.env.FIXTURE_LOG;
const app = express();
const listener = app.listen(0, "127.0.0.1");
await new Promise<void>((resolve) => listener.once("listening", () => resolve()));
const address = listener.address();
const port = typeof address === "object" && address ? address.port : 0;
const base = new URL(`http://127.0.0.1:${port}`);
const mcpUrl = new URL("/mcp", base);

app.use((req, _res, next) => {
  if (log) {
    const line = { method: req.method, path: req.path, authorization: req.headers.authorization ?? null };
    appendFileSync(log, `${JSON.stringify(line)}\n`);
  }
  next();
});

const rotate = process.env.FIXTURE_ROTATE_REFRESH === "1";
const echoAuth = process.env.FIXTURE_ECHO_AUTH === "1";
const authorizationEndpoint = process.env.FIXTURE_AUTHORIZATION_ENDPOINT;

if (process.env.FIXTURE_ENDLESS_METADATA === "1") {
  app.get(/^\/\.well-known\/oauth-protected-resource/, (_req, res) => {
    let written = 0;
    let gone = false;
    res.on("close", () => {
      gone = true;
      if (log) appendFileSync(log, `${JSON.stringify({ endless_bytes: written })}\n`);
    });
    res.status(200).type("application/json");
    const chunk = Buffer.alloc(64 * 1024, " ");
    const pump = () => {
      while (!gone) {
        written += chunk.byteLength;
        if (!res.write(chunk)) {
          res.once("drain", pump);
          return;
        }
      }
    };
    res.write("{");
    pump();
  });
}
if (authorizationEndpoint) {
  app.use("/.well-known/oauth-authorization-server", (_req, res, next) => {
    const json = res.json.bind(res);
    res.json = (body: Record<string, unknown>) =>
      json({ ...body, authorization_endpoint: authorizationEndpoint });
    next();
  });
}

let unauthorized = 0;
let waitingFor401s: { count: number; resolve: () => void }[] = [];
app.use("/mcp", (_req, res, next) => {
  res.on("finish", () => {
    if (res.statusCode !== 401) return;
    unauthorized++;
    const ready = waitingFor401s.filter((w) => unauthorized >= w.count);
    waitingFor401s = waitingFor401s.filter((w) => unauthorized < w.count);
    for (const w of ready) w.resolve();
  });
  next();
});
/** Resolves once the MCP endpoint has answered 401 `count` times. */
function unauthorizedAnswers(count: number): Promise<void> {
  if (unauthorized >= count) return Promise.resolve();
  return new Promise((resolve) => waitingFor401s.push({ count, resolve }));
}

/** The SDK's demo provider plus refresh tokens and revocation (above). */
class RefreshingProvider extends DemoInMemoryAuthProvider {
  private readonly revoked = new Set<string>();
  private readonly refreshed = new Map<string, AuthInfo>();
  private readonly refreshTokens = new Map<string, { clientId: string; scopes: string[] }>();

  override async exchangeAuthorizationCode(
    client: OAuthClientInformationFull,
    code: string,
    verifier?: string,
  ): Promise<OAuthTokens> {
    const tokens = await super.exchangeAuthorizationCode(client, code, verifier);
    const refresh = randomUUID();
    this.refreshTokens.set(refresh, { clientId: client.client_id, scopes: tokens.scope?.split(" ") ?? [] });
    return { ...tokens, refresh_token: refresh };
  }

  override async exchangeRefreshToken(
    client: OAuthClientInformationFull,
    refreshToken: string,
  ): Promise<OAuthTokens> {
    await unauthorizedAnswers(Number(process.env.FIXTURE_REFRESH_AFTER_401S ?? 0));
    const known = this.refreshTokens.get(refreshToken);
    if (!known || known.clientId !== client.client_id) throw new InvalidGrantError("unknown refresh token");
    const token = randomUUID();
    const expiresAt = Math.floor(Date.now() / 1000) + 3600;
    this.refreshed.set(token, { token, clientId: client.client_id, scopes: known.scopes, expiresAt });
    let next = refreshToken;
    if (rotate) {
      this.refreshTokens.delete(refreshToken);
      next = randomUUID();
      this.refreshTokens.set(next, known);
    }
    return { access_token: token, token_type: "bearer", expires_in: 3600, refresh_token: next };
  }

  override async verifyAccessToken(token: string): Promise<AuthInfo> {
    if (this.revoked.has(token)) throw new InvalidTokenError("token revoked");
    return this.refreshed.get(token) ?? super.verifyAccessToken(token);
  }

  revoke(token: string): void {
    this.revoked.add(token);
  }
}

const provider = new RefreshingProvider();
if (!open) {
  app.use(
    mcpAuthRouter({ provider, issuerUrl: base, resourceServerUrl: mcpUrl, scopesSupported: ["mcp:tools"] }),
  );
}
const auth = open
  ? (_req: express.Request, _res: express.Response, next: express.NextFunction) => next()
  : requireBearerAuth({
      verifier: provider,
      resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(mcpUrl),
    });

const sessions = new Map<string, StreamableHTTPServerTransport>();
function newSession(): StreamableHTTPServerTransport {
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    onsessioninitialized: (id) => {
      sessions.set(id, transport);
    },
  });
  transport.onclose = () => {
    if (transport.sessionId) sessions.delete(transport.sessionId);
  };
  const server = new McpServer({ name: "oauth-fixture", version: "1.0.0" });
  server.registerTool(
    "echo",
    { description: "Echoes its text back", inputSchema: { text: z.string() } },
    async ({ text }) => ({ content: [{ type: "text" as const, text: `echo: ${text}` }] }),
  );
  if (echoAuth) {
    server.registerTool("whoami", { description: "Says which token called it" }, async (extra) => {
      const header = extra.requestInfo?.headers.authorization;
      const token = String(header ?? "").replace(/^Bearer /i, "");
      return { content: [{ type: "text" as const, text: `you are ${token}` }] };
    });
    server.registerTool("crash", { description: "Fails" }, async () => ({ content: [] }));
  }
  void server.connect(transport);
  return transport;
}

app.all("/mcp", express.json(), auth, async (req, res) => {
  const scopes = (req as express.Request & { auth?: { scopes: string[] } }).auth?.scopes ?? [];
  const never = process.env.FIXTURE_STEP_UP_NEVER === "1";
  if (stepUp && req.body?.method === "tools/call" && (never || !scopes.includes(stepUp))) {
    const metadata = getOAuthProtectedResourceMetadataUrl(mcpUrl);
    res
      .status(403)
      .set(
        "WWW-Authenticate",
        `Bearer error="insufficient_scope", scope="mcp:tools ${stepUp}", resource_metadata="${metadata}"`,
      )
      .json({ error: "insufficient_scope" });
    return;
  }
  if (echoAuth && req.body?.method === "tools/call" && req.body?.params?.name === "crash") {
    // A proxy's error page that repeats what it was sent, headers and all.
    res
      .status(500)
      .type("text/plain")
      .send(`upstream failed for ${JSON.stringify({ headers: req.headers })}`);
    return;
  }
  const id = req.headers["mcp-session-id"];
  const existing = typeof id === "string" ? sessions.get(id) : undefined;
  const transport = existing ?? (req.method === "POST" && id === undefined ? newSession() : undefined);
  const revoking = process.env.FIXTURE_REVOKE_ON_DELETE;
  if (req.method === "DELETE" && (revoking === "1" || (revoking === "first" && !revokedFirst))) {
    const bearer = req.headers.authorization?.replace(/^Bearer /i, "");
    if (bearer) provider.revoke(bearer);
    revokedFirst = true;
  }
  if (!transport) {
    res.status(404).json({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null });
    return;
  }
  await transport.handleRequest(req, res, req.body);
});

process.stdout.write(`listening ${mcpUrl.href}\n`);
