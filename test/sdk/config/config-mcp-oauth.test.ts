/** The `oauth:` block of an HTTP MCP server in the user config: normalized, its errors naming file, line
 * and field, and its secrets (in config or in the variables it names) handed to the redactor. */
import { describe, expect, test } from "bun:test";
import { loadConfig } from "../../../src/sdk/config/config.ts";
import { mcpSecrets } from "../../../src/sdk/mcp-session.ts";
import { userConfigHomePerTest } from "../../support/user-config.ts";

const user = userConfigHomePerTest("agent-config-oauth-");
const { write } = user;
const failure = async (text: string): Promise<string> => (await user.failure(text)).message;

const server = (oauth: string) =>
  `mcp_servers:\n  docs:\n    url: https://mcp.example.com/mcp\n    oauth:\n${oauth}`;

describe("oauth: in an HTTP server's config", () => {
  test("a pre-registered client and a CI client-credentials one are read", async () => {
    write(
      `${server("      client_id: agent-cli\n      client_secret_env: DOCS_SECRET\n      scopes: [read, write]\n      callback_port: 43123\n")}` +
        "  ci:\n    url: https://ci.example.com/mcp\n    oauth: {grant: client_credentials, client_id: bot, client_secret_env: CI_SECRET}\n",
    );
    const config = await loadConfig(user.env);
    expect(config.mcpServers.docs).toMatchObject({
      transport: "http",
      oauth: {
        grant: "authorization_code",
        clientId: "agent-cli",
        clientSecretEnv: "DOCS_SECRET",
        scopes: ["read", "write"],
        callbackPort: 43123,
      },
    });
    expect(config.mcpServers.ci).toMatchObject({
      oauth: { grant: "client_credentials", clientId: "bot", clientSecretEnv: "CI_SECRET" },
    });
    // The secrets the variables hold reach the redactor, whatever the variables are called.
    const secrets = mcpSecrets(config.mcpServers, {
      DOCS_SECRET: "docs-value-123456",
      CI_SECRET: "ci-value-123456",
    });
    expect(secrets).toContain("docs-value-123456");
    expect(secrets).toContain("ci-value-123456");
  });

  test("mistakes are errors naming the field", async () => {
    expect(await failure(server("      grant: client_credentials\n"))).toContain(
      "mcp_servers.docs.oauth: grant client_credentials needs client_id and client_secret_env",
    );
    expect(await failure(server("      client_metadata_url: http://example.com/client.json\n"))).toContain(
      "mcp_servers.docs.oauth.client_metadata_url: expected client_metadata_url: an https URL",
    );
    expect(await failure(server("      client_secret_env: not a name\n"))).toContain(
      "mcp_servers.docs.oauth.client_secret_env: expected client_secret_env: the name of an environment variable",
    );
    expect(await failure(server("      scope: read\n"))).toContain("mcp_servers.docs.oauth");
    expect(await failure(server("      scope: read\n"))).toContain("client_metadata_url or callback_port");
    expect(await failure("mcp_servers:\n  gh:\n    command: gh-mcp\n    oauth: {client_id: x}\n")).toContain(
      "headers and oauth belong to a url server, not a command one",
    );
  });
});
