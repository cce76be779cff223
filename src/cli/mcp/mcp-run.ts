/**
 * `agent mcp list`: starts each server the user config declares (with its startup timeout), lists its
 * tools, and stops it. Servers a trusted project declares are listed but not started: starting one needs
 * approval, which a run asks for. A server that fails to start is a row with state `failed` and why.
 */
import { terminalLine } from "../../kernel/index.ts";
import { Redactor } from "../../kernel/text/redact.ts";
import { loadConfig } from "../../sdk/config/config.ts";
import { mcpSecrets, sessionMcpConfigs, userServersCwd } from "../../sdk/mcp-session.ts";
import { loadProjectRules } from "../../sdk/project/project-rules.ts";
import { McpServers } from "../../tools/mcp/servers.ts";
import { type CommandIo, processIo } from "../shared/io/command-io.ts";
import { handleInterrupts } from "../shared/io/interrupts.ts";
import { safeLine } from "../shared/io/terminal-out.ts";

export async function runMcpList(
  flags: { json?: boolean; cwd?: string },
  io: CommandIo = processIo(),
): Promise<void> {
  const { stdout, stderr } = io;
  const cwd = flags.cwd ?? io.cwd;
  const config = await loadConfig(io.env);
  const { servers, notices } = sessionMcpConfigs(config, await loadProjectRules(cwd), cwd);
  const user = Object.keys(servers).filter((name) => servers[name]?.fromProject === undefined);
  const manager = new McpServers(servers, { cwd, ...userServersCwd(config.file) });
  const interrupts = handleInterrupts({ onFirst: () => {}, onForce: () => process.exit(130) });
  try {
    const started = await manager.report(interrupts.signal, user);
    // A server's error may quote its stderr, and a server rejecting its token may name it.
    const redactor = Redactor.fromEnv(io.env, mcpSecrets(servers));
    const rows = redactor.redactValue([
      ...started,
      ...Object.keys(servers)
        .filter((name) => !user.includes(name))
        .map((name) => ({
          name,
          transport: servers[name]?.transport ?? "stdio",
          state: "not started" as const,
          tools: [] as string[],
          note: `declared by ${servers[name]?.fromProject}; a run asks before starting it`,
        })),
    ]);
    for (const notice of notices) stderr.write(safeLine`agent: warning: ${notice.message}\n`);
    if (flags.json) {
      stdout.json(rows, 2);
      return;
    }
    if (rows.length === 0) {
      stdout.write("no MCP servers configured (mcp_servers in your user config)\n");
      return;
    }
    for (const row of rows) {
      const detail =
        "error" in row && row.error
          ? row.error
          : "note" in row
            ? row.note
            : `tools: ${row.tools.map(terminalLine).join(", ") || "(none)"}`;
      // Names and errors come from the servers: each field is one terminal-safe line, so a tool name
      // holding a newline cannot print a forged row.
      stdout.write(`${[row.name, row.transport, row.state, detail].map(terminalLine).join("\t")}\n`);
    }
  } finally {
    await manager.closeAll();
    interrupts.dispose();
  }
}
