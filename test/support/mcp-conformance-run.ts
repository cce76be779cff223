/**
 * What the official MCP conformance suite (`@modelcontextprotocol/conformance`) hands a client it drives
 * (its README, "Client Testing"): the server URL as the one argument, MCP_CONFORMANCE_SCENARIO naming the
 * scenario and, for some, MCP_CONFORMANCE_CONTEXT holding credentials. Shared by our two client drivers
 * (test/tools/mcp/mcp-conformance-client.ts, test/e2e/mcp/mcp-conformance-cli.ts).
 */

/** The suite's CIMD scenario expects this client_id (a metadata document URL; a real deployment hosts its own). */
export const CONFORMANCE_CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";

/** Credentials a scenario hands the client. */
export interface ConformanceContext {
  name?: string;
  client_id?: string;
  client_secret?: string;
  private_key_pem?: string;
  signing_algorithm?: string;
}

export interface ConformanceRun {
  url: string;
  scenario: string;
  context: ConformanceContext;
}

/** The run the suite asked for, or undefined after a usage line on stderr (no URL given). */
export function conformanceRun(driver: string): ConformanceRun | undefined {
  const url = process.argv[2];
  if (!url) {
    process.stderr.write(`usage: ${driver} SERVER_URL\n`);
    return undefined;
  }
  return {
    url,
    scenario: process.env.MCP_CONFORMANCE_SCENARIO ?? "",
    context: JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}") as ConformanceContext,
  };
}
