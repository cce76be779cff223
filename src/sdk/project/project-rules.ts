/**
 * Project approval rules: `./.agent/config.yaml` in the workspace may add `rules.ask` and `rules.deny`
 * (never allow rules, never models or providers: a cloned repository must not loosen the user's policy
 * or redirect their keys to another server). It may also declare `hooks`, which run only when the user
 * config lists the project in `trusted_projects` (see projectHooks), and `mcp_servers`, which are used
 * only when the user config trusts the project (mcp-session.ts), and then start only after approval.
 */
import { realpathSync } from "node:fs";
import { join, resolve } from "node:path";
import type { HooksConfig } from "../../agents/hooks/hooks.ts";
import { readConfigFile } from "../../kernel/files/config-file.ts";
import { AppError } from "../../kernel/index.ts";
import type { RuleLists } from "../../policy/rules.ts";
import type { McpServerConfig } from "../../tools/mcp/types.ts";

/** What a project config holds: its rule lists, the hooks and the MCP servers it declares. */
export interface ProjectConfig extends RuleLists {
  hooks?: HooksConfig;
  mcpServers: Record<string, McpServerConfig>;
}

export const PROJECT_CONFIG = join(".agent", "config.yaml");

/** Reads the project's rule lists; none when the file is absent. */
export async function loadProjectRules(workspaceRoot: string): Promise<ProjectConfig | undefined> {
  const file = join(workspaceRoot, PROJECT_CONFIG);
  // A FIFO, a device, a huge file or a symlink out of the workspace is refused (exit 3), never read.
  const text = await readConfigFile(file, { kind: "config", within: workspaceRoot });
  if (text === undefined) return undefined;
  const { parseConfigText } = await import("../config/config-parse.ts");
  const config = parseConfigText(text, file);
  const foreign = [
    Object.keys(config.models).length > 0 ? "models" : "",
    config.reasoningEffort !== undefined ? "reasoning_effort" : "",
    Object.keys(config.providers).length > 0 ? "providers" : "",
    config.defaults.agent || config.defaults.onAsk ? "defaults" : "",
    config.trustedProjects.length > 0 ? "trusted_projects" : "",
    // Never applied: a repository must not turn the sandbox off or give its commands the network.
    config.sandbox !== undefined ? "sandbox" : "",
    // Never applied: a repository must not turn traces on or send them to its own collector.
    config.telemetry !== undefined ? "telemetry" : "",
  ].filter(Boolean);
  if (foreign.length > 0) {
    throw new AppError(
      "config",
      `${file}: a project config may only hold rules.ask and rules.deny, not ${foreign.join(", ")}; ` +
        "put those in your user config",
      { file, field: foreign[0] },
    );
  }
  const mcpServers: Record<string, McpServerConfig> = {};
  for (const [name, server] of Object.entries(config.mcpServers))
    mcpServers[name] = { ...server, fromProject: file };
  return { ...config.rules, file, mcpServers, ...(config.hooks ? { hooks: config.hooks } : {}) };
}

/**
 * The project's hooks, when the user trusts the project (`trusted_projects` in the user config names its
 * root); else none, and a notice saying why they did not run. A cloned repository cannot run a command
 * by itself through hooks any more than through specs.
 */
export function projectHooks(
  project: ProjectConfig | undefined,
  workspaceRoot: string,
  trusted: readonly string[],
): { hooks?: HooksConfig; notice?: string } {
  if (!project?.hooks) return {};
  if (trustsProject(trusted, workspaceRoot)) return { hooks: project.hooks };
  return {
    notice:
      `${project.file ?? PROJECT_CONFIG}: its hooks were not run: the project is not in trusted_projects ` +
      "of your user config",
  };
}

/**
 * Whether `trusted` (the user config's `trusted_projects`) names the project at `workspaceRoot`: the one
 * check for hooks and MCP servers alike. Both sides are compared as real paths, so a symlink, a trailing
 * slash or `..` names the directory it resolves to, and only that one (never its parent or a
 * subdirectory, whose `.agent/config.yaml` is another project's).
 */
export function trustsProject(trusted: readonly string[], workspaceRoot: string): boolean {
  const root = projectPath(workspaceRoot);
  return trusted.some((path) => projectPath(path) === root);
}

/** A project's path as trusted_projects should name it: its real path. */
export function projectPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}
