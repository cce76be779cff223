/** The `oauth:` block of an HTTP MCP server in the user config: normalized, its errors naming file, line
 * and field, and its secrets (in config or in the variables it names) handed to the redactor. */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AppError } from "../../../src/kernel/index.ts";
import { loadConfig } from "../../../src/sdk/config/config.ts";
import { mcpSecrets } from "../../../src/sdk/mcp-session.ts";

let home: string;
let env: Record<string, string>;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "agent-config-oauth-"));
  env = { XDG_CONFIG_HOME: home };
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

function write(text: string): void {
  mkdirSync(join(home, "agent"), { recursive: true });
  writeFileSync(join(home, "agent", "config.yaml"), text);
}

async function failure(text: string): Promise<string> {
  write(text);
  const error = await loadConfig(env).catch((e: unknown) => e);
  if (error instanceof AppError) return error.message;
  throw new Error(`expected a config error, got ${String(error)}`);
}

const server = (oauth: string) =>
  `mcp_servers:\n  docs:\n    url: https://mcp.example.com/mcp\n    oauth:\n${oauth}`;

describe("oauth: in an HTTP server's config", () => {
  test("a pre-registered client and a CI client-credentials one are read", async () => {
    write(
      `${server("      client_id: agent-cli\n      client_secret_env: DOCS_SECRET\n      scopes: [read, write]\n      callback_port: 43123\n")}` +
        "  ci:\n    url: https://ci.example.com/mcp\n    oauth: {grant: client_credentials, client_id: bot, client_secret_env: CI_SECRET}\n",
    );
    const config = await loadConfig(env);
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
