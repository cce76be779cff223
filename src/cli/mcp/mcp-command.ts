/** `agent mcp list|login|logout`: the configured MCP servers, each started to list its tools; OAuth
 * authorization of an HTTP server. Work in mcp-run.ts and mcp-login.ts. */
import type { Command } from "commander";
import type { CommandModule } from "../shared/command-module.ts";
import { commandIo } from "../shared/io/command-io.ts";
import type * as McpActions from "./mcp-actions.ts";

export const mcpCommand: CommandModule<typeof McpActions> = {
  register(program: Command, load, io) {
    const mcp = program.command("mcp").description("MCP servers from config");
    mcp
      .command("list")
      .description(
        "list MCP servers (name, transport, state, tools); starts each user-configured server to ask for its tools",
      )
      .option("--json", "print the list as JSON")
      .option("--cwd <dir>", "the project whose .agent/config.yaml to read (default: the current directory)")
      .action(async (flags: { json?: boolean; cwd?: string }) => {
        const { runMcpList } = await load();
        await runMcpList(flags, commandIo(io));
      });
    mcp
      .command("login")
      .description(
        "authorize at an HTTP MCP server that asks for OAuth (opens the browser; stores the token)",
      )
      .argument("<name>", "the server's name in mcp_servers")
      .option("--no-browser", "print the authorization URL instead of opening a browser")
      .option(
        "--headless",
        "follow the authorization server's redirects without a browser (servers that approve without a person)",
      )
      .option("--cwd <dir>", "the project whose .agent/config.yaml to read (default: the current directory)")
      .action(async (name: string, flags: { browser?: boolean; headless?: boolean; cwd?: string }) => {
        const { runMcpLogin } = await load();
        await runMcpLogin(name, flags);
      });
    mcp
      .command("logout")
      .description("delete the tokens and client registration stored for an HTTP MCP server")
      .argument("<name>", "the server's name in mcp_servers")
      .option("--cwd <dir>", "the project whose .agent/config.yaml to read (default: the current directory)")
      .action(async (name: string, flags: { cwd?: string }) => {
        const { runMcpLogout } = await load();
        await runMcpLogout(name, flags);
      });
  },
};
