/** `agent mcp list`: the configured MCP servers, each started to list its tools. Work in mcp-run.ts. */
import type { Command } from "commander";
import type { CommandModule } from "../shared/command-module.ts";

export const mcpCommand: CommandModule = {
  register(program: Command) {
    const mcp = program.command("mcp").description("MCP servers from config");
    mcp
      .command("list")
      .description(
        "list MCP servers (name, transport, state, tools); starts each user-configured server to ask for its tools",
      )
      .option("--json", "print the list as JSON")
      .option("--cwd <dir>", "the project whose .agent/config.yaml to read (default: the current directory)")
      .action(async (flags: { json?: boolean; cwd?: string }) => {
        const { runMcpList } = await import("./mcp-run.ts");
        await runMcpList(flags);
      });
  },
};
