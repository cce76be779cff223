/** An MCP server as config declares it (user config `mcp_servers`, or a trusted project's). */
export type McpServerConfig = (
  | { transport: "stdio"; command: string; args: string[]; env: Record<string, string> }
  | { transport: "http"; url: string; headers: Record<string, string>; oauth?: McpOAuthConfig }
) & {
  /** The user trusts the server's read-only annotations (`trust: true`). */
  trust: boolean;
  /** How long starting and listing tools may take (`startup_timeout_ms`). */
  startupTimeoutMs: number;
  /** Declared by the project's `.agent/config.yaml`: starting it asks first, like an exec of its command. */
  fromProject?: string;
  /**
   * The directory a user's stdio server starts in (`cwd:` in config; relative to the user's server
   * directory, see McpServersOptions.userCwd). A project's server always starts in the workspace.
   */
  cwd?: string;
};

/** The default of `startup_timeout_ms`: a hung server costs a run at most this long. */
export const DEFAULT_STARTUP_TIMEOUT_MS = 10_000;

/** How a server is doing, for `agent mcp list`. */
export type McpServerState = "not started" | "running" | "failed" | "closed";

/**
 * How `agent` authorizes at an HTTP server that asks for OAuth (`oauth:` in config; every HTTP server
 * may use OAuth without it: discovery, dynamic registration and `agent mcp login` need no config).
 */
export interface McpOAuthConfig {
  /** `authorization_code` (the browser flow of `agent mcp login`, default) or `client_credentials` (CI). */
  grant: "authorization_code" | "client_credentials";
  /** A client registered in advance with the authorization server (no dynamic registration). */
  clientId?: string;
  /** Its secret, given in config (`client_secret`). */
  clientSecret?: string;
  /** The environment variable holding its secret (`client_secret_env`), read when the server starts. */
  clientSecretEnv?: string;
  /** The environment variable holding a PEM private key for `private_key_jwt` (`private_key_env`). */
  privateKeyEnv?: string;
  /** The JWS algorithm of that key (`signing_algorithm`, default ES256). */
  signingAlgorithm?: string;
  /** Scopes to ask for when neither the server's challenge nor its metadata names any (`scopes`). */
  scopes?: string[];
  /** An https URL of this client's metadata document, used as client_id where the server supports it. */
  clientMetadataUrl?: string;
  /** A fixed loopback port for the login redirect (`callback_port`), for a client registered with one. */
  callbackPort?: number;
}
