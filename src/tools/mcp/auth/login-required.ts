/**
 * The two ways a server's authorization needs the user rather than the model: a login (no stored token,
 * or a wider scope the server named in a `403 insufficient_scope`), and a scope the server keeps refusing
 * however often it is granted, where another login would not help. A run turns either into a tool error
 * for the model and one `mcp` warning for the user (servers.ts); `agent mcp login` ends with the message.
 * No SDK import: tool.ts recognises these without loading the SDK's auth code.
 */

/** The server needs a person to authorize (no stored token, or a wider scope): `agent mcp login NAME`. */
export class McpLoginRequired extends Error {
  constructor(
    readonly server: string,
    readonly scope: string | undefined,
  ) {
    super(
      scope
        ? `it needs authorization (scope ${scope}); run: agent mcp login ${server}`
        : `it needs authorization; run: agent mcp login ${server}`,
    );
    this.name = "McpLoginRequired";
  }
}

/**
 * The server refused `scope` again with a token granted for it, `refusals` times: the MCP spec's retry
 * limit ("Retry the original request with the new authorization no more than a few times and treat this
 * as a permanent authorization failure"; clients SHOULD implement retry limits and track scope upgrade
 * attempts, https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#scope-challenge-handling).
 * No new authorization is started for that scope until `agent mcp logout NAME` forgets the count.
 */
export class McpScopeRefused extends Error {
  constructor(
    readonly server: string,
    readonly scope: string,
    readonly refusals: number,
  ) {
    super(
      `it refused scope ${scope} ${refusals} times with a token granted for it; logging in again will not help: ask the server's administrator for that permission, then run: agent mcp logout ${server} and agent mcp login ${server}`,
    );
    this.name = "McpScopeRefused";
  }
}

/** Either error: the user, not the model, must act. */
export function needsUser(error: unknown): error is McpLoginRequired | McpScopeRefused {
  return error instanceof McpLoginRequired || error instanceof McpScopeRefused;
}
