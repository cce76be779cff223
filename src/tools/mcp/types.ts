/** An MCP server as config declares it (user config `mcp_servers`, or a trusted project's). */
export type McpServerConfig = (
  | { transport: "stdio"; command: string; args: string[]; env: Record<string, string> }
  | { transport: "http"; url: string; headers: Record<string, string>; oauth?: McpOAuthConfig }
) & {
  /** The user trusts the server's read-only annotations (`trust: true`). */
  trust: boolean;
  /** How long starting and listing tools may take (`startup_timeout_ms`). */
  startupTimeoutMs: number;
  /** How long a tool call may go without a result or a progress notification (`tool_timeout_ms`; default DEFAULT_TOOL_TIMEOUT_MS). */
  toolTimeoutMs?: number;
  /** What of the server reaches the model (`max_description_chars`, `max_tools_bytes`, `tools`,
   * `exclude_tools`; see tool-limits.ts); what is absent takes DEFAULT_TOOL_LIMITS. */
  limits?: Partial<McpToolLimits>;
  /** The user lets the server ask for a model completion (`sampling: true`), through the `fast` tier and
   * approved like a tool call; otherwise such a request is declined. */
  sampling?: boolean;
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

/** Caps on what one server sends the model in every request. */
export interface McpToolLimits {
  /** A longer tool description is cut to this many characters (with a note and a warning). */
  maxDescriptionChars: number;
  /** The server's tool definitions (name, description, input schema as JSON) past this many bytes are
   * dropped, last tools first, each with a warning. */
  maxToolsBytes: number;
  /** Only these tools are offered (`tools:`); absent: all of them. */
  only?: string[];
  /** These tools are never offered (`exclude_tools:`). */
  exclude?: string[];
}

/** Defaults of the caps: 2048 characters per description, as Claude Code truncates tool descriptions
 * and server instructions ("at 2KB each", code.claude.com/docs/en/mcp "For MCP server authors"; the
 * constant is 2048 per anthropics/claude-code#87650); 64 KiB of definitions per server (about 16K input
 * tokens in every request; a 200-tool server of 26.5 KB fits). */
export const DEFAULT_TOOL_LIMITS: McpToolLimits = { maxDescriptionChars: 2048, maxToolsBytes: 65_536 };

/** The default of `tool_timeout_ms`: the SDK's own request timeout (DEFAULT_REQUEST_TIMEOUT_MSEC), now
 * restarted by every progress notification. */
export const DEFAULT_TOOL_TIMEOUT_MS = 60_000;

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
