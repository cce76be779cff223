/**
 * The OAuthClientProvider our HTTP transports get (`@modelcontextprotocol/sdk/client/auth.js`): the SDK
 * does discovery (WWW-Authenticate, protected-resource metadata, authorization-server metadata with the
 * 2025-03-26 fallbacks), PKCE, client ID metadata documents, dynamic registration, scope selection and
 * step-up, and refresh; this provider only keeps what it is handed (token-store.ts) and says how a
 * person is sent to the authorization page.
 *
 * Without an Authorizer (a run, `agent mcp list`) nobody can be sent anywhere: where the SDK would start
 * a new authorization, the provider throws McpLoginRequired and the server is reported with
 * `run: agent mcp login NAME`. Refreshing a stored token needs no person and happens in runs too.
 * With one (`agent mcp login`), the Authorizer takes the authorization URL to a user agent and waits for
 * the loopback redirect; the connection then finishes the exchange (transport.finishAuth).
 *
 * The client-credentials grant (CI) uses the SDK's own providers (auth-extensions.js).
 */

import type { OAuthClientProvider, OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import {
  ClientCredentialsProvider,
  PrivateKeyJwtProvider,
} from "@modelcontextprotocol/sdk/client/auth-extensions.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import pkg from "../../../../package.json" with { type: "json" };
import type { McpOAuthConfig } from "../types.ts";
import type { Authorizer } from "./authorizer.ts";
import { McpLoginRequired, McpScopeRefused } from "./login-required.ts";
import { loadAuthRecord, type McpAuthRecord, updateAuthRecord } from "./token-store.ts";

/** Told every credential as it is read or received (for the session's redactor). */
export type SecretSink = (values: readonly string[]) => void;

/** How often a server may refuse a scope with a token granted for it before no authorization asks for
 * it again (McpScopeRefused): the spec's "no more than a few times". With the first authorization that
 * makes at most three for one scope, the bound of conformance `auth/scope-retry-limit`. */
export const SCOPE_REFUSAL_LIMIT = 2;

/** The redirect URI a provider without an Authorizer names: never listened on, never visited. */
const NO_REDIRECT = "http://127.0.0.1/callback";

/** Our provider for the authorization-code grant, backed by the state-dir record of one server URL. */
export class StoredOAuthProvider implements OAuthClientProvider {
  private record: McpAuthRecord;
  private verifier: string | undefined;
  /** The scope of the authorization this provider started last (its tokens are granted for it). */
  private requested: string | undefined;

  private constructor(
    private readonly server: string,
    record: McpAuthRecord,
    private readonly oauth: McpOAuthConfig | undefined,
    private readonly authorizer: Authorizer | undefined,
    private readonly env: Record<string, string | undefined>,
    private readonly onSecrets: SecretSink,
  ) {
    this.record = record;
    onSecrets(this.secrets());
  }

  /** The provider of `url`'s stored record; every token it reads or is handed goes to `onSecrets` first. */
  static async open(
    server: string,
    url: string,
    oauth: McpOAuthConfig | undefined,
    authorizer: Authorizer | undefined,
    env: Record<string, string | undefined> = process.env,
    onSecrets: SecretSink = () => {},
  ): Promise<StoredOAuthProvider> {
    return new StoredOAuthProvider(server, await loadAuthRecord(url, env), oauth, authorizer, env, onSecrets);
  }

  get redirectUrl(): string {
    return this.authorizer?.redirectUrl ?? NO_REDIRECT;
  }

  get clientMetadataUrl(): string | undefined {
    return this.oauth?.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const secret = this.clientSecret();
    return {
      client_name: "agent",
      client_uri: "https://www.npmjs.com/package/agent",
      software_id: "agent-cli",
      software_version: pkg.version,
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: secret !== undefined ? "client_secret_basic" : "none",
      ...(this.oauth?.scopes?.length ? { scope: this.oauth.scopes.join(" ") } : {}),
    };
  }

  state(): string {
    return this.authorizer?.newState() ?? "";
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    if (this.oauth?.clientId !== undefined) {
      const secret = this.clientSecret();
      return { client_id: this.oauth.clientId, ...(secret !== undefined ? { client_secret: secret } : {}) };
    }
    const stored = this.record.client;
    // A registration made for another loopback port is not reused by a login: the server would refuse
    // the new redirect URI. The SDK registers again (saveClientInformation).
    if (stored && this.authorizer && "redirect_uris" in stored && Array.isArray(stored.redirect_uris)) {
      if (!stored.redirect_uris.map(String).includes(this.redirectUrl)) return undefined;
    }
    if (stored === undefined && this.authorizer === undefined)
      throw new McpLoginRequired(this.server, undefined);
    return stored;
  }

  async saveClientInformation(info: OAuthClientInformationMixed): Promise<void> {
    // A pre-registered client from config is never written to disk (its secret stays where the user keeps it).
    if (this.oauth?.clientId !== undefined && info.client_id === this.oauth.clientId) return;
    await this.update({ client: info });
  }

  tokens(): OAuthTokens | undefined {
    return this.record.tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    // A refresh keeps the grant (RFC 6749 §6): its tokens are still for the scope asked for before.
    const fresh = this.requested !== undefined;
    const requested = this.requested ?? this.record.requested_scope;
    this.requested = undefined;
    const grant = (this.record.grant ?? 0) + (fresh ? 1 : 0);
    await this.update({ tokens, wanted_scope: undefined, requested_scope: requested, grant });
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    const scope = authorizationUrl.searchParams.get("scope") ?? undefined;
    if (scope !== undefined) this.refuseRefusedScope(scope);
    this.requested = scope;
    if (!this.authorizer) {
      if (scope !== undefined) await this.update({ wanted_scope: scope });
      throw new McpLoginRequired(this.server, scope);
    }
    await this.authorizer.authorize(authorizationUrl);
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (this.verifier === undefined)
      throw new Error("no PKCE code verifier: the authorization did not start here");
    return this.verifier;
  }

  async invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): Promise<void> {
    if (scope === "verifier") {
      this.verifier = undefined;
      return;
    }
    const cleared: Partial<McpAuthRecord> = {};
    if (scope === "all" || scope === "tokens") cleared.tokens = undefined;
    if (scope === "all" || scope === "client") cleared.client = undefined;
    if (scope === "all" || scope === "discovery") cleared.discovery = undefined;
    // The SDK drops tokens the server refused (invalid_grant). When the stored ones are no longer the ones
    // this provider held, another run has refreshed them meanwhile: they are kept, never cleared unseen.
    const held = this.record.tokens?.refresh_token ?? this.record.tokens?.access_token;
    await this.update(cleared, (current) => {
      const stored = current.tokens?.refresh_token ?? current.tokens?.access_token;
      return "tokens" in cleared && stored !== undefined && stored !== held ? { tokens: current.tokens } : {};
    });
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    await this.update({ discovery: state });
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.record.discovery;
  }

  /** Records a scope the server asked for (403 insufficient_scope) for the next login, and says a login
   * is needed. */
  async requireScope(scope: string): Promise<McpLoginRequired | McpScopeRefused> {
    const refused = this.refusalsOf(scope);
    if (refused >= SCOPE_REFUSAL_LIMIT) return new McpScopeRefused(this.server, scope, refused);
    await this.update({ wanted_scope: scope });
    return new McpLoginRequired(this.server, scope);
  }

  /**
   * The server answered `403 insufficient_scope` naming `scope`. When the stored tokens were granted by
   * an authorization that asked for all of it, the step-up did not help: counted once per grant (per
   * scope, in the record, so the count outlives the run and the login), and at SCOPE_REFUSAL_LIMIT no
   * authorization asks for it again.
   */
  async noteScopeRefusal(scope: string): Promise<void> {
    const requested = this.record.requested_scope;
    if (requested === undefined || !scopeCovers(requested, scope)) return;
    // One count per grant: the SDK's retry with a refreshed token is the same grant refused again.
    const grant = this.record.grant ?? 0;
    const counted = this.record.scope_refusals;
    if (counted?.scope === normalScope(scope) && counted.grant === grant) return;
    const refusals = this.refusalsOf(scope) + 1;
    await this.update({ scope_refusals: { scope: normalScope(scope), count: refusals, grant } });
  }

  private refusalsOf(scope: string): number {
    const counted = this.record.scope_refusals;
    return counted !== undefined && counted.scope === normalScope(scope) ? counted.count : 0;
  }

  private refuseRefusedScope(scope: string): void {
    const refused = this.refusalsOf(scope);
    if (refused >= SCOPE_REFUSAL_LIMIT) throw new McpScopeRefused(this.server, scope, refused);
  }

  /** The scope a server asked for in an earlier run (403 insufficient_scope), for the next login. */
  get wantedScope(): string | undefined {
    return this.record.wanted_scope;
  }

  /** Every credential value this provider holds, for scrubbing error text. */
  secrets(): string[] {
    const values = [
      this.record.tokens?.access_token,
      this.record.tokens?.refresh_token,
      this.record.tokens?.id_token,
      this.clientSecret(),
      this.record.client?.client_secret,
    ];
    return values.filter((v): v is string => typeof v === "string" && v.length > 0);
  }

  private clientSecret(): string | undefined {
    if (this.oauth?.clientSecret !== undefined) return this.oauth.clientSecret;
    if (this.oauth?.clientSecretEnv !== undefined) return this.env[this.oauth.clientSecretEnv] || undefined;
    return undefined;
  }

  /**
   * Applies `change` to the record as it is on disk now (re-read under the record's lock, so a change
   * another run made meanwhile is kept), plus what `keep(current)` says to keep of it; the result is this
   * provider's record from then on.
   */
  private async update(
    change: Partial<McpAuthRecord>,
    keep: (current: McpAuthRecord) => Partial<McpAuthRecord> = () => ({}),
  ): Promise<void> {
    this.record = await updateAuthRecord(this.record.server_url, this.env, (current) => {
      const applied = { ...change, ...keep(current) };
      const next = { ...current, ...applied };
      for (const key of Object.keys(applied) as (keyof McpAuthRecord)[]) {
        if (applied[key] === undefined) delete next[key];
      }
      return next;
    });
    this.onSecrets(this.secrets());
  }
}

/**
 * The SDK's client-credentials provider for `grant: client_credentials` (CI): the secret or private key
 * comes from the variable config names; a missing one is a clear error. Tokens live in memory for the run.
 */
export function clientCredentialsProvider(
  oauth: McpOAuthConfig,
  env: Record<string, string | undefined> = process.env,
): OAuthClientProvider {
  const clientId = oauth.clientId ?? "";
  const scope = oauth.scopes?.join(" ");
  if (oauth.privateKeyEnv !== undefined) {
    const privateKey = env[oauth.privateKeyEnv];
    if (!privateKey) throw new Error(`oauth.private_key_env names ${oauth.privateKeyEnv}, which is not set`);
    return new PrivateKeyJwtProvider({
      clientId,
      privateKey,
      algorithm: oauth.signingAlgorithm ?? "ES256",
      clientName: "agent",
      ...(scope ? { scope } : {}),
    });
  }
  const secret =
    oauth.clientSecret ?? (oauth.clientSecretEnv !== undefined ? env[oauth.clientSecretEnv] : undefined);
  if (!secret) throw new Error(`oauth.client_secret_env names ${oauth.clientSecretEnv}, which is not set`);
  return new ClientCredentialsProvider({
    clientId,
    clientSecret: secret,
    clientName: "agent",
    ...(scope ? { scope } : {}),
  });
}

/** A scope as a set: its space-separated tokens, sorted (RFC 6749 §3.3: order does not matter). */
function normalScope(scope: string): string {
  return [...new Set(scope.split(" ").filter((s) => s.length > 0))].sort().join(" ");
}

/** Every scope token of `wanted` is in `granted`. */
function scopeCovers(granted: string, wanted: string): boolean {
  const have = new Set(granted.split(" "));
  return wanted.split(" ").every((s) => s.length === 0 || have.has(s));
}
