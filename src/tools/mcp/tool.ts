/**
 * An MCP server's tool as an ordinary Tool: the loop validates, puts it to the gate (rule target
 * `mcp:SERVER/TOOL`: policy name `mcp`, target `SERVER/TOOL`), runs it, and the pipeline redacts and
 * truncates its output as every tool's (src/agents/loop/tool-calls/invoke.ts). A call that needs the user
 * (a login, a scope the server refuses) is an error result for the model and is told to `onNeedsUser`,
 * which warns the user (servers.ts).
 */
import type { JsonSchema, ToolOutput } from "../../kernel/index.ts";
import { Redactor } from "../../kernel/text/redact.ts";
import { errorOutput, finishOutput } from "../tool-output.ts";
import type { Tool, ToolContext } from "../types.ts";
import { type McpLoginRequired, type McpScopeRefused, needsUser } from "./auth/login-required.ts";
import type { McpConnection, McpToolInfo } from "./connection.ts";
import { displayName } from "./names.ts";
import { outputOf } from "./result-content.ts";

/** An MCP tool, with `run`: a call on its own, outside a session's pipeline (tests, `agent mcp`), redacted
 * and truncated as the pipeline would. */
export interface McpTool extends Tool {
  run(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolOutput>;
}

/** Told when a call failed because the user must act (log in, or get a permission granted). */
export type OnNeedsUser = (tool: string, error: McpLoginRequired | McpScopeRefused) => void;

/** The Tool for `info` of `server`; `trusted` when the user config trusts the server's annotations. */
export function mcpTool(
  server: string,
  info: McpToolInfo,
  connection: McpConnection,
  trusted: boolean,
  onNeedsUser: OnNeedsUser = () => {},
): McpTool {
  const name = displayName(server, info.name);
  // The MCP schema: "Clients should never make tool use decisions based on ToolAnnotations received
  // from untrusted servers" (sdk dist/esm/types.d.ts ToolAnnotationsSchema), hence `trusted` below.
  const readOnly = info.annotations?.readOnlyHint === true;
  // Offered like a primitive's schema (define.ts jsonSchemaOf): without the `$schema` key.
  const { $schema: _draft, ...parameters } = info.inputSchema as JsonSchema;
  const tool: Tool = {
    name,
    kind: "mcp",
    description: info.description ?? info.annotations?.title ?? name,
    parameters,
    readOnly,
    concurrent: readOnly,
    policyName: "mcp",
    validate: (args) =>
      args !== null && typeof args === "object" && !Array.isArray(args)
        ? { ok: true, value: args as Record<string, unknown> }
        : { ok: false, error: `invalid arguments for ${name}: expected a JSON object` },
    policyTarget: async () => ({
      targets: [`${server}/${info.name}`],
      sensitive: false,
      trusted,
    }),
    preview: async (args) => `${name} ${JSON.stringify(args)}`,
    async execute(args, ctx) {
      const gone = connection.closedReason();
      if (gone !== undefined) return errorOutput(`${name} cannot run: ${gone}`);
      try {
        const progress = ctx.onProgress;
        const options = { signal: ctx.signal, ...(progress ? { onProgress: progress } : {}) };
        return outputOf(await connection.call(info.name, args, options));
      } catch (error) {
        if (needsUser(error)) onNeedsUser(info.name, error);
        const why = connection.closedReason() ?? (error instanceof Error ? error.message : String(error));
        return errorOutput(`${name} failed: ${why}`);
      }
    },
  };
  return {
    ...tool,
    run: async (args, ctx) => finishOutput(await tool.execute(args, ctx), ctx.redactor ?? Redactor.fromEnv()),
  };
}
