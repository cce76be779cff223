/**
 * One authorization of one HTTP server (`agent mcp login`): the loopback listener and a user agent
 * (authorizer.ts), the stored tokens and discovery results of the server dropped first so the server's
 * own challenge decides what is asked for, then the connection code every run uses, which meets the 401, lets the SDK run
 * discovery, registration and PKCE, sends the user agent to the authorization page, and exchanges the
 * code (connection.ts). A scope a server asked for in an earlier run (403 insufficient_scope) is asked
 * for directly through the SDK's auth().
 */
import type { McpConnection } from "../connection.ts";
import type { McpServerConfig } from "../types.ts";
import { createLoopbackAuthorizer, type UserAgent } from "./authorizer.ts";
import { StoredOAuthProvider } from "./oauth-provider.ts";
import { authorizeScope } from "./scope-authorization.ts";
import { loadAuthRecord, updateAuthRecord } from "./token-store.ts";

export interface LoginOptions {
  userAgent: UserAgent;
  print: (line: string) => void;
  signal: AbortSignal;
  env?: Record<string, string | undefined>;
  /** How long to wait for the person (default 5 minutes). */
  timeoutMs?: number;
}

type HttpConfig = Extract<McpServerConfig, { transport: "http" }>;

/**
 * Authorizes at `config.url` and hands the authorized connection to `use` (the login only lists the
 * tools; the conformance client calls them too), then closes it. Throws a one-line reason.
 */
export async function withLogin<T>(
  name: string,
  config: HttpConfig,
  options: LoginOptions,
  use: (connection: McpConnection) => Promise<T>,
): Promise<T> {
  const env = options.env ?? process.env;
  const authorizer = await createLoopbackAuthorizer({
    userAgent: options.userAgent,
    print: options.print,
    signal: options.signal,
    env,
    ...(config.oauth?.callbackPort !== undefined ? { port: config.oauth.callbackPort } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  });
  try {
    const record = await loadAuthRecord(config.url, env);
    const wanted = record.wanted_scope;
    // A login starts over, keeping only the client registration (the SDK drops one made with another
    // authorization server): old tokens and discovery results may name a server that has moved.
    await updateAuthRecord(config.url, env, ({ tokens: _tokens, discovery: _discovery, ...rest }) => rest);
    if (wanted !== undefined && config.oauth?.grant !== "client_credentials") {
      const provider = await StoredOAuthProvider.open(name, config.url, config.oauth, authorizer, env);
      await authorizeScope(provider, authorizer, config.url, wanted, record.discovery?.resourceMetadataUrl);
    }
    const { connectMcpServer } = await import("../connection.ts");
    const connection = await connectMcpServer(name, config, options.signal, undefined, { authorizer, env });
    try {
      return await use(connection);
    } finally {
      await connection.close();
    }
  } finally {
    await authorizer.close();
  }
}
