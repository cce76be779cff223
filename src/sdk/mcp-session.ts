/**
 * The MCP servers of a run: the user config's, plus a project's only when the user config lists the
 * project in `trusted_projects`; a project-declared server still starts only after the approval gate
 * allows it, asked like an exec of its command (or a fetch of its URL). Nothing here starts a server or
 * loads the MCP SDK: servers start when an agent that names them runs (src/tools/mcp/servers.ts).
 */
import { dirname } from "node:path";
import type { AgentIdentity } from "../kernel/index.ts";
import { looksSecret } from "../kernel/text/redact.ts";
import type { ApprovalGate } from "../policy/gate.ts";
import { quoteWord } from "../policy/shell-word.ts";
import type { McpClientHandlers } from "../tools/mcp/client-requests.ts";
import type { McpServers } from "../tools/mcp/servers.ts";
import type { McpServerConfig } from "../tools/mcp/types.ts";
import type { AgentConfig } from "./config/config.ts";
import type { Notice } from "./project/project-notices.ts";
import { type ProjectConfig, projectPath, trustsProject } from "./project/project-rules.ts";

/** The servers a run may use, and notices about project servers left out. */
export function sessionMcpConfigs(
  config: Pick<AgentConfig, "mcpServers" | "trustedProjects">,
  project: ProjectConfig | undefined,
  workspaceRoot: string,
): { servers: Record<string, McpServerConfig>; notices: Notice[] } {
  const servers: Record<string, McpServerConfig> = { ...config.mcpServers };
  const declared = Object.keys(project?.mcpServers ?? {});
  if (project === undefined || declared.length === 0) return { servers, notices: [] };
  if (!trustsProject(config.trustedProjects, workspaceRoot)) {
    const message =
      `${project.file} declares MCP servers (${declared.join(", ")}) that are not used: add ${projectPath(workspaceRoot)} to ` +
      "trusted_projects in your user config to allow them (each still asks before it starts)";
    return { servers, notices: [{ code: "mcp_untrusted_project", message }] };
  }
  // A user server of the same name wins: a project cannot replace what the user configured.
  for (const name of declared) servers[name] ??= project.mcpServers[name] as McpServerConfig;
  return { servers, notices: [] };
}

/**
 * The credentials config hands the servers: values of secret-looking `env` variables and `headers`
 * (an `Authorization` value also without its `Bearer`/`Basic` word), for the session's redactor: a
 * server that echoes its token must not pass it on to the model or the transcript.
 */
export function mcpSecrets(
  servers: Readonly<Record<string, McpServerConfig>>,
  env: Readonly<Record<string, string | undefined>> = process.env,
): string[] {
  const secrets: string[] = [];
  for (const config of Object.values(servers)) {
    const named = config.transport === "stdio" ? config.env : config.headers;
    for (const [name, value] of Object.entries(named)) {
      if (!looksSecret(name)) continue;
      secrets.push(value, value.replace(/^(?:bearer|basic|token)\s+/i, ""));
    }
    // An OAuth client secret or private key, given in config or in the variables it names.
    const oauth = config.transport === "http" ? config.oauth : undefined;
    for (const value of [
      oauth?.clientSecret,
      oauth?.clientSecretEnv !== undefined ? env[oauth.clientSecretEnv] : undefined,
      oauth?.privateKeyEnv !== undefined ? env[oauth.privateKeyEnv] : undefined,
    ]) {
      if (value) secrets.push(value);
    }
  }
  return secrets;
}

/** The command line (or URL) starting a server, as an approval shows it and exec rules match it. Its
 * `env` comes first as assignments (`NODE_OPTIONS=… node srv.js`): they change what runs, so, as for any
 * exec, a rule for the command alone does not cover them. */
export function startTarget(config: McpServerConfig): { tool: "exec" | "fetch"; target: string } {
  if (config.transport === "http") return { tool: "fetch", target: config.url };
  const quote = (text: string) => quoteWord({ text, quoted: false, expands: false, assignment: false });
  const assignments = Object.entries(config.env).map(([name, value]) => `${name}=${quote(value)}`);
  const words = [...assignments, ...[config.command, ...config.args].map(quote)];
  return { tool: "exec", target: words.join(" ") };
}

/** The session's servers (undefined when none is declared), with project servers approved by `gate` and
 * started in the workspace, user servers started outside it (userServersCwd); `projectTrusted` says
 * whether the user config trusts the workspace. */
export async function createMcpServers(
  servers: Record<string, McpServerConfig>,
  gate: ApprovalGate,
  who: AgentIdentity,
  workspace: { root: string; projectTrusted: boolean; configFile?: string },
  answers: Pick<McpClientHandlers, "sample" | "elicit"> = {},
  onSecrets?: (values: readonly string[]) => void,
): Promise<McpServers | undefined> {
  if (Object.keys(servers).length === 0) return undefined;
  const { McpServers } = await import("../tools/mcp/servers.ts");
  const approveStart = async (name: string, config: McpServerConfig, signal: AbortSignal) => {
    const { tool, target } = startTarget(config);
    try {
      const decision = await gate.check(
        {
          who,
          tool,
          args: tool === "exec" ? { command: target } : { url: target },
          request: { tool, targets: [target], readOnly: false, sensitive: false },
          preview: async () => `start MCP server ${name} declared by ${config.fromProject}: ${target}`,
        },
        signal,
      );
      return decision.allowed ? undefined : decision.message;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  };
  return new McpServers(servers, {
    approveStart,
    cwd: workspace.root,
    ...userServersCwd(workspace.configFile),
    projectTrusted: workspace.projectTrusted,
    ...(onSecrets ? { onSecrets } : {}),
    // The workspace is the one root; a form goes to `answers.elicit` (declined without it); sampling is
    // offered to servers with `sampling: true` when the session can run it.
    handlers: {
      roots: () => [workspace.root],
      ...(answers.sample ? { sample: answers.sample } : {}),
      ...(answers.elicit ? { elicit: answers.elicit } : {}),
    },
  });
}

/**
 * Where the user's stdio servers start, and what their `cwd:` is relative to: the folder of the config
 * file that declares them, never the workspace (so `python3 -m mcp_server_time` cannot run a repository's
 * `mcp_server_time.py`). Without a config file there are no user servers; McpServers' default then holds.
 */
export function userServersCwd(configFile: string | undefined): { userCwd?: string } {
  return configFile !== undefined ? { userCwd: dirname(configFile) } : {};
}
