/**
 * The streamable-HTTP transport of one server (`@modelcontextprotocol/sdk/client/streamableHttp.js`):
 * its OAuth provider (auth/oauth-provider.ts; the transport's `authProvider` option runs the SDK's auth()
 * on a 401 and on a 403 `insufficient_scope`), the fetch it and the SDK's auth use (auth/oauth-fetch.ts:
 * capped OAuth answers, credentials told to the redactor, refreshes under the record's lock), and a look
 * at each answer of the MCP endpoint itself: its status and content type so a failure can be named
 * (diagnosis.ts), and a `403 insufficient_scope` counted against the scope's retry limit.
 */
import {
  extractWWWAuthenticateParams,
  type OAuthClientProvider,
} from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Authorizer } from "./auth/authorizer.ts";
import { oauthFetch } from "./auth/oauth-fetch.ts";
import { clientCredentialsProvider, type SecretSink, StoredOAuthProvider } from "./auth/oauth-provider.ts";
import type { HttpFacts } from "./diagnosis.ts";
import type { McpServerConfig } from "./types.ts";

type HttpConfig = Extract<McpServerConfig, { transport: "http" }>;

export interface HttpConnectionParts {
  /** A new transport (one per connection attempt; the provider and the facts are shared). */
  transport(): StreamableHTTPClientTransport;
  provider: OAuthClientProvider;
  /** The stored provider (authorization-code grant); undefined for client credentials. */
  stored: StoredOAuthProvider | undefined;
  /** The last answer of the server's own URL (never of the OAuth endpoints). */
  facts(): HttpFacts | undefined;
  /** Credential values to keep out of error text. */
  secrets(): string[];
}

export async function httpConnectionParts(
  name: string,
  config: HttpConfig,
  authorizer: Authorizer | undefined,
  env: Record<string, string | undefined> = process.env,
  connect: { onSecrets?: SecretSink } = {},
): Promise<HttpConnectionParts> {
  const onSecrets = connect.onSecrets ?? (() => {});
  const provider =
    config.oauth?.grant === "client_credentials"
      ? clientCredentialsProvider(config.oauth, env)
      : await StoredOAuthProvider.open(name, config.url, config.oauth, authorizer, env, onSecrets);
  let last: HttpFacts | undefined;
  const watched = oauthFetch({
    endpoint: new URL(config.url).href,
    onSecrets,
    ...(provider instanceof StoredOAuthProvider ? { record: { serverUrl: config.url, env } } : {}),
    onEndpointAnswer: async (response, init) => {
      const { error, scope, resourceMetadataUrl } = extractWWWAuthenticateParams(response);
      // Counted before the SDK's step-up starts another authorization (oauth-provider.ts, retry limit).
      if (response.status === 403 && error === "insufficient_scope" && scope !== undefined) {
        if (provider instanceof StoredOAuthProvider) await provider.noteScopeRefusal(scope);
      }
      last = {
        status: response.status,
        statusText: response.statusText,
        contentType: response.headers.get("content-type") ?? undefined,
        method: init?.method ?? "GET",
        ...(error !== undefined || scope !== undefined
          ? {
              challenge: {
                ...(error !== undefined ? { error } : {}),
                ...(scope !== undefined ? { scope } : {}),
                ...(resourceMetadataUrl !== undefined
                  ? { resourceMetadataUrl: resourceMetadataUrl.href }
                  : {}),
              },
            }
          : {}),
      };
    },
  });
  return {
    transport: () =>
      new StreamableHTTPClientTransport(new URL(config.url), {
        requestInit: { headers: config.headers },
        authProvider: provider,
        fetch: watched,
      }),
    provider,
    stored: provider instanceof StoredOAuthProvider ? provider : undefined,
    facts: () => last,
    secrets: () => {
      const tokens = provider instanceof StoredOAuthProvider ? provider.secrets() : [];
      const current = (provider.tokens() as { access_token?: string } | undefined)?.access_token;
      return current ? [...tokens, current] : tokens;
    },
  };
}
