/**
 * Our client as the official conformance suite (`@modelcontextprotocol/conformance`) drives one: it runs
 * `bun test/tools/mcp/mcp-conformance-client.ts SERVER_URL` with MCP_CONFORMANCE_SCENARIO naming the scenario
 * and, for some, MCP_CONFORMANCE_CONTEXT holding credentials (the suite's README, "Client Testing").
 *
 * The scenario becomes what a user would write in config (an `oauth:` block for pre-registered clients
 * and client credentials, a client metadata URL), and the server is used through our real code: the
 * connection every run uses, and for OAuth the login of `agent mcp login NAME --headless`, whose user
 * agent follows the authorization server's redirects (the suite's server approves without a page).
 * Then every tool is called with sample arguments, as a model would.
 *
 * A server's form (elicitation) goes through the product's handler (src/tools/mcp/elicitation.ts: the
 * schema becomes our form fields, pre-filled with their defaults, and the answer becomes the result); the
 * person is stood in for by an answerer that accepts the form exactly as it is pre-filled, as a user
 * pressing Enter on every field would.
 */
import { initialDrafts } from "../../../src/kernel/run-events/elicitation.ts";
import type { McpClientHandlers } from "../../../src/tools/mcp/client-requests.ts";
import type { McpConnection } from "../../../src/tools/mcp/connection.ts";
import { elicitationHandler } from "../../../src/tools/mcp/elicitation.ts";
import type { McpOAuthConfig, McpServerConfig } from "../../../src/tools/mcp/types.ts";
import {
  CONFORMANCE_CLIENT_METADATA_URL,
  type ConformanceContext,
  conformanceRun,
} from "../../support/mcp-conformance-run.ts";

async function main(): Promise<number> {
  const run = conformanceRun("mcp-conformance-client.ts");
  if (run === undefined) return 2;
  const { url, scenario, context } = run;
  const oauth = oauthFor(scenario, context);
  const config: McpServerConfig = {
    transport: "http",
    url,
    headers: {},
    ...(oauth !== undefined ? { oauth } : {}),
    trust: false,
    startupTimeoutMs: 20_000,
  };
  const signal = new AbortController().signal;
  if (scenario.startsWith("auth/") && oauth?.grant !== "client_credentials") {
    const { withLogin } = await import("../../../src/tools/mcp/auth/login.ts");
    await withLogin(
      "conformance",
      config,
      { userAgent: "follow", print: (line) => process.stderr.write(`${line}\n`), signal },
      callEveryTool,
    );
  } else {
    const { connectMcpServer } = await import("../../../src/tools/mcp/connection.ts");
    const connection = await connectMcpServer("conformance", config, signal, undefined, { handlers });
    try {
      await callEveryTool(connection);
    } finally {
      await connection.close();
    }
  }
  return 0;
}

/** What the client answers: no roots; every form accepted as pre-filled (Enter on each field). */
const handlers: McpClientHandlers = {
  roots: () => [],
  elicit: elicitationHandler(async (question) => ({
    action: "accept",
    drafts: initialDrafts(question.fields),
  })),
};

function oauthFor(scenario: string, context: ConformanceContext): McpOAuthConfig | undefined {
  if (scenario === "auth/client-credentials-jwt") {
    process.env.CONFORMANCE_PRIVATE_KEY = context.private_key_pem ?? "";
    return {
      grant: "client_credentials",
      clientId: context.client_id ?? "",
      privateKeyEnv: "CONFORMANCE_PRIVATE_KEY",
      signingAlgorithm: context.signing_algorithm ?? "ES256",
    };
  }
  if (scenario === "auth/client-credentials-basic") {
    process.env.CONFORMANCE_CLIENT_SECRET = context.client_secret ?? "";
    return {
      grant: "client_credentials",
      clientId: context.client_id ?? "",
      clientSecretEnv: "CONFORMANCE_CLIENT_SECRET",
    };
  }
  if (context.client_id !== undefined) {
    return {
      grant: "authorization_code",
      clientId: context.client_id,
      ...(context.client_secret !== undefined ? { clientSecret: context.client_secret } : {}),
    };
  }
  if (scenario.startsWith("auth/"))
    return { grant: "authorization_code", clientMetadataUrl: CONFORMANCE_CLIENT_METADATA_URL };
  return undefined;
}

/** Calls each tool once with arguments its schema asks for (numbers 1, strings "x"). */
async function callEveryTool(connection: McpConnection): Promise<void> {
  for (const tool of connection.tools) {
    const schema = tool.inputSchema as {
      properties?: Record<string, { type?: string }>;
      required?: string[];
    };
    const args: Record<string, unknown> = {};
    for (const name of schema.required ?? []) {
      const type = schema.properties?.[name]?.type;
      args[name] = type === "number" || type === "integer" ? 1 : type === "boolean" ? true : "x";
    }
    const result = await connection.call(tool.name, args, { signal: new AbortController().signal });
    process.stderr.write(`called ${tool.name}: ${result.isError === true ? "error" : "ok"}\n`);
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`conformance client: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
