/**
 * A user of the `agent` CLI as the official conformance suite (`@modelcontextprotocol/conformance`) drives
 * a client: the suite runs `bun test/e2e/mcp/mcp-conformance-cli.ts SERVER_URL` with
 * MCP_CONFORMANCE_SCENARIO naming an `auth/` scenario and, for some, MCP_CONFORMANCE_CONTEXT holding
 * credentials (the suite's README, "Client Testing").
 *
 * Unlike mcp-conformance-client.ts (our connection code called directly), everything here goes through
 * `bin/agent` as a person would use it: the scenario becomes the `mcp_servers` entry of the user's
 * config.yaml written with the keys docs/mcp.md documents, then `agent mcp login conformance --headless`
 * (for the authorization-code scenarios), then `agent run` of an agent that offers the server's tools,
 * with the model (the fake LLM server) calling the scenarios' tool `test-tool`. The person reads only
 * what `agent` shows: when the run's stderr says `run: agent mcp login conformance`, they log in again
 * and run again, as told, up to PATIENCE times. Each step's output goes to stderr (the suite keeps it).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startFakeLlmServer } from "../../support/fake-llm-server.ts";
import {
  CONFORMANCE_CLIENT_METADATA_URL,
  type ConformanceContext,
  conformanceRun,
} from "../../support/mcp-conformance-run.ts";

const AGENT_BIN = resolve(import.meta.dir, "../../../bin/agent");
/** How many times the person follows a login hint before giving up (past any bound of ours). */
const PATIENCE = 6;

async function main(): Promise<number> {
  const run = conformanceRun("mcp-conformance-cli.ts");
  if (run === undefined) return 2;
  const { url, scenario, context } = run;
  const dir = mkdtempSync(join(tmpdir(), "agent-conformance-cli-"));
  const llm = await startFakeLlmServer();
  try {
    const home = join(dir, "home");
    const workspace = join(dir, "ws");
    const configDir = join(dir, "config", "agent");
    for (const d of [home, workspace, join(configDir, "agents")]) mkdirSync(d, { recursive: true });
    const oauth = oauthYaml(scenario, context);
    writeFileSync(
      join(configDir, "config.yaml"),
      `mcp_servers:\n  conformance:\n    url: ${url}\n    startup_timeout_ms: 20000\n${oauth}`,
    );
    writeFileSync(
      join(configDir, "agents", "mcp-user.yaml"),
      "name: mcp-user\ndescription: uses MCP tools\nsystem_prompt: Use the tools.\ncapabilities: [mcp:conformance]\n",
    );
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: home,
      XDG_CONFIG_HOME: join(dir, "config"),
      XDG_STATE_HOME: process.env.XDG_STATE_HOME ?? join(dir, "state"),
      XDG_CACHE_HOME: join(dir, "cache"),
      NO_COLOR: "1",
      ANTHROPIC_API_KEY: "sk-ant-test-conformance-0001",
      ANTHROPIC_BASE_URL: llm.anthropicBaseUrl,
      CONFORMANCE_CLIENT_SECRET: context.client_secret ?? "",
      CONFORMANCE_PRIVATE_KEY: context.private_key_pem ?? "",
    };
    const agent = async (args: string[]) => {
      const proc = Bun.spawn([AGENT_BIN, ...args], { env, cwd: workspace, stdout: "pipe", stderr: "pipe" });
      const [stdout, stderr, code] = await Promise.all([
        new Response(proc.stdout).text(),
        new Response(proc.stderr).text(),
        proc.exited,
      ]);
      process.stderr.write(`$ agent ${args.join(" ")}\n${stdout}${stderr}(exit ${code})\n`);
      return { stdout, stderr, code };
    };
    const needsLogin = !oauth.includes("grant: client_credentials");
    for (let round = 1; round <= PATIENCE; round++) {
      if (needsLogin && (await agent(["mcp", "login", "conformance", "--headless"])).code !== 0) return 1;
      llm.clear();
      llm.enqueue({ toolCalls: [{ name: "mcp__conformance__test-tool", args: {} }] }, { text: "Done." });
      const run = await agent([
        "run",
        "call the test tool",
        "--agent",
        "mcp-user",
        "--allow",
        "mcp:conformance",
        "-o",
        "json",
      ]);
      if (!run.stderr.includes("run: agent mcp login conformance")) return run.code;
    }
    return 1;
  } finally {
    await llm.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The `oauth:` block a user would write for the scenario (docs/mcp.md, "`oauth:` keys"). */
function oauthYaml(scenario: string, context: ConformanceContext): string {
  const lines: string[] = [];
  if (scenario === "auth/client-credentials-jwt") {
    lines.push("grant: client_credentials", `client_id: ${context.client_id}`);
    lines.push("private_key_env: CONFORMANCE_PRIVATE_KEY", `signing_algorithm: ${context.signing_algorithm}`);
  } else if (scenario === "auth/client-credentials-basic") {
    lines.push("grant: client_credentials", `client_id: ${context.client_id}`);
    lines.push("client_secret_env: CONFORMANCE_CLIENT_SECRET");
  } else if (context.client_id !== undefined) {
    lines.push(`client_id: ${context.client_id}`);
    if (context.client_secret !== undefined) lines.push("client_secret_env: CONFORMANCE_CLIENT_SECRET");
  } else if (scenario === "auth/basic-cimd") {
    lines.push(`client_metadata_url: ${CONFORMANCE_CLIENT_METADATA_URL}`);
  }
  return lines.length === 0 ? "" : `    oauth:\n${lines.map((l) => `      ${l}\n`).join("")}`;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `conformance CLI driver: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  },
);
