/**
 * `agent mcp login NAME` and `agent mcp logout NAME`: authorize at an HTTP server of the config (OAuth,
 * src/tools/mcp/auth/), or forget what was stored for it. The login needs a person at a terminal unless
 * `--headless` says the authorization server approves without one; it never waits without a TTY.
 */
import { AppError, ExitCode, terminalLine } from "../../kernel/index.ts";
import { loadConfig } from "../../sdk/config/config.ts";
import { sessionMcpConfigs } from "../../sdk/mcp-session.ts";
import { loadProjectRules } from "../../sdk/project/project-rules.ts";
import type { McpServerConfig } from "../../tools/mcp/types.ts";
import { CliExit } from "../shared/command-module.ts";
import { handleInterrupts } from "../shared/io/interrupts.ts";
import { isTerminal, stderr, stdout } from "../shared/io/std-streams.ts";

export interface LoginFlags {
  cwd?: string;
  headless?: boolean;
  /** commander's `--no-browser`: false when given. */
  browser?: boolean;
}

type HttpConfig = Extract<McpServerConfig, { transport: "http" }>;

export async function runMcpLogin(name: string, flags: LoginFlags): Promise<void> {
  const config = await httpServer(name, flags.cwd);
  const print = (line: string) => stderr.write(`${terminalLine(line)}\n`);
  const terminal = isTerminal(0) && stderr.isTTY;
  const clientCredentials = config.oauth?.grant === "client_credentials";
  if (!terminal && !flags.headless && !clientCredentials) {
    throw new AppError(
      "usage",
      `agent mcp login ${name} needs a terminal: it shows an authorization URL and waits for you. ` +
        "Run it in a terminal, or pass --headless for an authorization server that approves without a person",
    );
  }
  const interrupts = handleInterrupts({
    onFirst: () => {},
    onForce: () => process.exit(ExitCode.interrupted),
  });
  try {
    const userAgent = flags.headless ? "follow" : flags.browser === false ? "print" : "browser";
    // The OAuth flow (and the MCP SDK's auth) loads only for `login`.
    const { withLogin } = await import("../../tools/mcp/auth/login.ts");
    const tools = await withLogin(
      name,
      config,
      { userAgent, print, signal: interrupts.signal },
      async (connection) => connection.tools.length,
    );
    stdout.write(
      clientCredentials
        ? `${name}: client credentials accepted (${tools} tools); runs get a token the same way\n`
        : `logged in to ${name} (${tools} tools); the token is stored for ${config.url} only\n`,
    );
  } catch (error) {
    if (interrupts.interrupted) throw new CliExit(ExitCode.interrupted, `login to ${name} interrupted`);
    const why = error instanceof Error ? error.message : String(error);
    throw new CliExit(ExitCode.failure, `login to ${name} failed: ${why.replace(/^failed to start: /, "")}`);
  } finally {
    interrupts.dispose();
  }
}

export async function runMcpLogout(name: string, flags: { cwd?: string }): Promise<void> {
  const config = await httpServer(name, flags.cwd);
  // The token store loads only for `logout` (this module also serves `login`).
  const { deleteAuthRecord } = await import("../../tools/mcp/auth/token-store.ts");
  const had = await deleteAuthRecord(config.url);
  stdout.write(
    had
      ? `logged out of ${name}: its tokens and registration are deleted\n`
      : `${name}: nothing was stored\n`,
  );
}

/** The HTTP server `name` of the config, or a usage error naming the ones there are. */
async function httpServer(name: string, cwd = process.cwd()): Promise<HttpConfig> {
  const config = await loadConfig(process.env);
  const { servers } = sessionMcpConfigs(config, await loadProjectRules(cwd), cwd);
  const server = servers[name];
  const http = Object.keys(servers).filter((n) => servers[n]?.transport === "http");
  if (server === undefined) {
    throw new AppError(
      "usage",
      `no MCP server ${name} in config (HTTP servers: ${http.join(", ") || "none"}; mcp_servers in your user config)`,
    );
  }
  if (server.transport !== "http") {
    throw new AppError(
      "usage",
      `MCP server ${name} is a command (stdio) server: OAuth is for url servers; give a stdio server its credentials in env`,
    );
  }
  return server;
}
