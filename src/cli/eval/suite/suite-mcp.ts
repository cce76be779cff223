/**
 * The MCP servers a suite uses: only those its tasks name in `mcp_servers:`, each taken from the user's
 * config as written there. A task's run sees no other part of the user's setup (agent-process.ts), so a
 * replay compares what the suite states, and a live run can still reach the servers the user logged in to.
 */
import { parse } from "yaml";
import { AppError } from "../../../kernel/errors.ts";
import { readConfigFileResult } from "../../../kernel/files/config-file.ts";
import type { AgentConfig } from "../../../sdk/config/agent-config.ts";
import type { SuiteTask } from "./suite-task.ts";

/** The user's config entry of every server the suite names; an unknown name is a config error (exit 3). */
export async function suiteMcpServers(
  suiteFile: string,
  tasks: readonly SuiteTask[],
  config: AgentConfig,
  configPath: string,
): Promise<Record<string, unknown>> {
  const named = [...new Set(tasks.flatMap((task) => task.mcpServers))];
  if (named.length === 0) return {};
  const unknown = named.filter((name) => !(name in config.mcpServers));
  if (unknown.length > 0) {
    const known = Object.keys(config.mcpServers);
    throw new AppError(
      "config",
      `${suiteFile}: mcp_servers: ${unknown.map((n) => `"${n}"`).join(", ")} not in your config (${configPath}); ${known.length > 0 ? `it has ${known.join(", ")}` : "it has no mcp_servers"}`,
      { file: suiteFile },
    );
  }
  // The entries as the user wrote them (loadConfig has validated this same file).
  const read = await readConfigFileResult(configPath, {});
  const raw = "text" in read ? (parse(read.text) as { mcp_servers?: Record<string, unknown> } | null) : null;
  return Object.fromEntries(named.map((name) => [name, raw?.mcp_servers?.[name]]));
}
