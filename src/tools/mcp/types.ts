/** An MCP server as config declares it (user config `mcp_servers`, or a trusted project's). */
export type McpServerConfig = (
  | { transport: "stdio"; command: string; args: string[]; env: Record<string, string> }
  | { transport: "http"; url: string; headers: Record<string, string> }
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
