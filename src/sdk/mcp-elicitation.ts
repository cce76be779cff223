/**
 * A server's elicitation (a form) goes to the session's approver, the channel approval requests take:
 * on a terminal the Ink form, with `-p`, `--on-ask` or without a terminal an approver that cannot show
 * forms, so the form is declined at once (the server reads `decline`, never waits). The MCP side of it
 * (schema to fields, answer to result) loads only when a server asks.
 */
import type { McpClientHandlers } from "../tools/mcp/client-requests.ts";
import type { SwitchableApprover } from "./approver.ts";

type Elicit = NonNullable<McpClientHandlers["elicit"]>;

export function mcpElicitation(approver: SwitchableApprover): Elicit {
  return async (server, params, signal) => {
    const { elicitationHandler } = await import("../tools/mcp/elicitation.ts");
    return elicitationHandler((question, ask) => approver.elicit(question, ask))(server, params, signal);
  };
}
