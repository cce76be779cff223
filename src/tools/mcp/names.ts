/**
 * How MCP tools are named. A spec names them as capabilities, `mcp:SERVER` (every tool of the server) or
 * `mcp:SERVER/TOOL`; rules, events and the user see `mcp:SERVER/TOOL`; the model sees a provider-safe
 * name, `mcp__SERVER__TOOL` (the form Claude Code uses: Claude Code docs, "Connect Claude Code to tools via MCP"), because
 * tool names must be letters, digits, `_` and `-`, at most 64 characters (OpenAI: node_modules/openai/
 * resources/shared.d.ts FunctionDefinition.name; Anthropic: docs.anthropic.com "Tool use", `name` must
 * match ^[a-zA-Z0-9_-]{1,64}$; Gemini also wants a letter or `_` first, genai.d.ts FunctionDeclaration.name).
 */
import { createHash } from "node:crypto";

/** Server names in config: they appear in capabilities, rules and tool names, so no `/`, `:` or spaces. */
export const SERVER_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

/**
 * The capability `mcp:*`: every tool of every server the session's config declares (the root agent's,
 * so servers in config reach the main agent as they do in the peers, under the same approval rules).
 */
export const ALL_MCP_SERVERS = "mcp:*";

/** The capabilities with `mcp:*` replaced by `mcp:SERVER` for each of `servers`. */
export function expandMcpWildcard(capabilities: readonly string[], servers: readonly string[]): string[] {
  return capabilities.flatMap((cap) =>
    cap === ALL_MCP_SERVERS ? servers.map((server) => `mcp:${server}`) : [cap],
  );
}

/** A capability `mcp:SERVER` or `mcp:SERVER/TOOL`. */
export interface McpCapability {
  server: string;
  /** Absent: every tool of the server. */
  tool?: string;
}

/** Parses an `mcp:` capability; undefined when `text` is not one. */
export function parseMcpCapability(text: string): McpCapability | undefined {
  if (!text.startsWith("mcp:")) return undefined;
  const rest = text.slice("mcp:".length);
  const slash = rest.indexOf("/");
  if (slash < 0) return { server: rest };
  return { server: rest.slice(0, slash), tool: rest.slice(slash + 1) };
}

/** The name rules, events and the user see: `mcp:github/create_issue`. */
export function displayName(server: string, tool: string): string {
  return `mcp:${server}/${tool}`;
}

const MAX_NAME = 64;

/** The name the model sees: `mcp__github__create_issue`; other characters become `_`, and a name that
 * is too long or already taken is cut and given a hash of the full name. */
export function safeToolName(server: string, tool: string, taken: ReadonlySet<string> = new Set()): string {
  const clean = (text: string) => text.replace(/[^A-Za-z0-9_-]/g, "_");
  const name = `mcp__${clean(server)}__${clean(tool)}`;
  if (name.length <= MAX_NAME && !taken.has(name)) return name;
  const hash = createHash("sha256").update(displayName(server, tool)).digest("hex").slice(0, 8);
  return `${name.slice(0, MAX_NAME - hash.length - 1)}_${hash}`;
}
