/**
 * The MCP servers of one session: each starts the first time an agent that names it builds its tools
 * (never at CLI startup, never when no agent names it), at most once, and all stop with the session.
 * A server that fails or times out on start is a warning and the run goes on without its tools, and so
 * is a call that needs the user (a login or a wider scope, once per server and cause); a
 * project-declared server starts only if `approveStart` says so (the gate, asked like an exec of its
 * command).
 */

import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { resolve } from "node:path";
import { configDir } from "../../kernel/files/paths.ts";
import type { McpClientHandlers } from "./client-requests.ts";
import type { McpConnection, McpToolInfo } from "./connection.ts";
import { expandMcpWildcard, type McpCapability, parseMcpCapability, safeToolName } from "./names.ts";
import { type McpTool, mcpTool, type OnNeedsUser } from "./tool.ts";
import { capInstructions, limitTools } from "./tool-limits.ts";
import type { McpServerConfig, McpServerState } from "./types.ts";

/** Decides whether a project-declared server may start: undefined to start it, else why not. */
export type ApproveStart = (
  name: string,
  config: McpServerConfig,
  signal: AbortSignal,
) => Promise<string | undefined>;

/** One server as `agent mcp list` reports it. */
export interface McpServerReport {
  name: string;
  transport: "stdio" | "http";
  state: McpServerState;
  tools: string[];
  error?: string;
  pid?: number;
}

interface Entry {
  config: McpServerConfig;
  started?: Promise<McpConnection | undefined>;
  connection?: McpConnection;
  /** The tools the model may be offered: the server's, as config and the caps leave them. */
  tools?: McpToolInfo[];
  /** What the caps and config took away, warned once by the call that started the server. */
  limitWarnings?: string[];
  /** What a call needed of the user (a login, a permission), each warned once per session. */
  userWarnings?: Set<string>;
  error?: string;
}

/** How a session's servers start. */
export interface McpServersOptions {
  /** Decides whether a project-declared server may start (without it, none may). */
  approveStart?: ApproveStart;
  /** The directory a project's stdio servers start in (the workspace: a project's `./tools/mcp.js` is
   * its own file, whatever directory the CLI was started from); default the current directory. */
  cwd?: string;
  /**
   * The directory a user's stdio servers start in when their config names none (`cwd:`): never the
   * workspace, so `python3 -m mcp_server_time` or `npx some-server` cannot pick up a module, script or
   * package.json the repository ships (issue 22). Default: the user's config directory
   * (`$XDG_CONFIG_HOME/agent`) when it exists, else the home directory.
   */
  userCwd?: string;
  /** The user trusts the workspace's project (`trusted_projects`): agents of its specs may rely on a
   * server's `trust` too. Without it, a repository's spec naming a user's trusted server (`mcp:gmail`)
   * gets that server's read-only tools only through approval. */
  projectTrusted?: boolean;
  /** How the session answers servers' requests (roots, elicitation, sampling); default: no roots, every
   * elicitation declined, no sampling. */
  handlers?: McpClientHandlers;
  /** Told every credential a server's connection reads or is given (OAuth tokens as they are loaded or
   * refreshed, client secrets, private keys): the session's redactor learns them (Redactor.add). */
  onSecrets?: (values: readonly string[]) => void;
}

export class McpServers {
  private readonly entries = new Map<string, Entry>();
  private closing = false;
  private readonly approveStart: ApproveStart | undefined;
  private readonly cwd: string | undefined;
  private readonly userCwd: string | undefined;
  private readonly projectTrusted: boolean;
  private readonly handlers: McpClientHandlers | undefined;
  private readonly onSecrets: ((values: readonly string[]) => void) | undefined;

  constructor(configs: Readonly<Record<string, McpServerConfig>>, options: McpServersOptions = {}) {
    for (const [name, config] of Object.entries(configs)) this.entries.set(name, { config });
    this.approveStart = options.approveStart;
    this.cwd = options.cwd;
    this.userCwd = options.userCwd;
    this.projectTrusted = options.projectTrusted === true;
    this.handlers = options.handlers;
    this.onSecrets = options.onSecrets;
  }

  /**
   * What the servers `capabilities` name say about using them (InitializeResult.instructions), for the
   * system prompt of the agent that uses them: each capped like a description and marked as the
   * server's own words. Servers that have not started (or failed) add nothing.
   */
  instructionsFor(capabilities: readonly string[]): string | undefined {
    const servers = new Set(
      expandMcpWildcard(capabilities, this.names)
        .map(parseMcpCapability)
        .flatMap((c) => (c !== undefined ? [c.server] : [])),
    );
    const sections: string[] = [];
    for (const server of servers) {
      const text = this.entries.get(server)?.connection?.instructions;
      if (text === undefined) continue;
      const cap = this.entries.get(server)?.config.limits?.maxDescriptionChars;
      sections.push(
        `Instructions from MCP server ${server} (the server's own words):\n${capInstructions(text, cap)}`,
      );
    }
    return sections.length > 0 ? sections.join("\n\n") : undefined;
  }

  /** Tells every running server that the workspace roots changed (`notifications/roots/list_changed`). */
  async rootsChanged(): Promise<void> {
    await Promise.all(
      [...this.entries.values()].map((entry) =>
        entry.connection?.closedReason() === undefined
          ? entry.connection?.rootsChanged().catch(() => undefined)
          : undefined,
      ),
    );
  }

  /** Names of every declared server. */
  get names(): string[] {
    return [...this.entries.keys()];
  }

  /**
   * The tools `capabilities` name (`mcp:SERVER`, `mcp:SERVER/TOOL`, `mcp:*` for every declared server;
   * others are ignored), by the name the
   * model sees, starting their servers as needed. Problems go to `warn`, never throw.
   */
  async toolsFor(
    capabilities: readonly string[],
    warn: (message: string) => void,
    signal: AbortSignal,
    requester: { fromProject: boolean } = { fromProject: false },
  ): Promise<Map<string, McpTool>> {
    const mayTrust = !requester.fromProject || this.projectTrusted;
    const wanted = expandMcpWildcard(capabilities, this.names)
      .map(parseMcpCapability)
      .filter((c): c is McpCapability => c !== undefined);
    // Servers start side by side; each failure is reported once, by the call that started it.
    const starting = new Map<string, Promise<McpConnection | undefined>>();
    for (const { server } of wanted) {
      const entry = this.entries.get(server);
      if (!entry || starting.has(server)) continue;
      const firstTime = entry.started === undefined;
      const started = this.start(server, entry, signal);
      starting.set(server, started);
      if (firstTime) {
        void started.then((c) => {
          if (!c) warn(`MCP server ${server}: ${entry.error}; the run goes on without its tools`);
          for (const message of entry.limitWarnings ?? []) warn(message);
        });
      }
    }
    await Promise.all(starting.values());
    const tools = new Map<string, McpTool>();
    const seen = new Set<string>();
    for (const cap of wanted) {
      const entry = this.entries.get(cap.server);
      if (!entry) {
        warn(`MCP server ${cap.server} is not configured; the run goes on without its tools`);
        continue;
      }
      const connection = await starting.get(cap.server);
      if (!connection) continue;
      const offered = entry.tools ?? [];
      const infos = offered.filter((t) => cap.tool === undefined || t.name === cap.tool);
      if (cap.tool !== undefined && infos.length === 0) {
        const known = offered.map((t) => t.name).join(", ") || "(none)";
        warn(`MCP server ${cap.server} has no tool ${cap.tool} (it has ${known})`);
      }
      for (const info of infos) {
        const key = `${cap.server}/${info.name}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const safe = safeToolName(cap.server, info.name, new Set(tools.keys()));
        const onNeedsUser: OnNeedsUser = (tool, error) => {
          const message = `MCP server ${cap.server}: tool ${tool} failed: ${error.message}`;
          entry.userWarnings ??= new Set();
          if (entry.userWarnings.has(error.message)) return;
          entry.userWarnings.add(error.message);
          warn(message);
        };
        const trusted = entry.config.trust && mayTrust;
        tools.set(safe, mcpTool(cap.server, info, connection, trusted, onNeedsUser));
      }
    }
    return tools;
  }

  /** Starts every server (or only `names`) and reports each, for `agent mcp list`. */
  async report(signal: AbortSignal, names: readonly string[] = this.names): Promise<McpServerReport[]> {
    await Promise.all(
      names.map((name) => {
        const entry = this.entries.get(name);
        return entry ? this.start(name, entry, signal) : undefined;
      }),
    );
    return names.flatMap((name) => {
      const entry = this.entries.get(name);
      if (!entry) return [];
      const connection = entry.connection;
      const report: McpServerReport = {
        name,
        transport: entry.config.transport,
        state: stateOf(entry),
        tools: entry.tools?.map((t) => t.name) ?? [],
      };
      if (entry.error !== undefined) report.error = entry.error;
      if (connection?.pid !== undefined) report.pid = connection.pid;
      return [report];
    });
  }

  /** Stops every started server; no server starts afterwards. */
  async closeAll(): Promise<void> {
    this.closing = true;
    await Promise.all(
      [...this.entries.values()].map(async (entry) => {
        const connection = await entry.started?.catch(() => undefined);
        await connection?.close();
      }),
    );
  }

  private start(name: string, entry: Entry, signal: AbortSignal): Promise<McpConnection | undefined> {
    entry.started ??= this.connect(name, entry, signal);
    return entry.started;
  }

  private async connect(name: string, entry: Entry, signal: AbortSignal): Promise<McpConnection | undefined> {
    if (this.closing || signal.aborted) {
      entry.error = "not started: the run is ending";
      return undefined;
    }
    if (entry.config.fromProject !== undefined) {
      const refused = this.approveStart
        ? await this.approveStart(name, entry.config, signal)
        : `declared by ${entry.config.fromProject}, and nothing can approve starting it`;
      if (refused !== undefined) {
        entry.error = `not started: ${refused}`;
        return undefined;
      }
    }
    try {
      const { connectMcpServer } = await import("./connection.ts");
      const cwd =
        entry.config.fromProject !== undefined ? this.cwd : userServerCwd(entry.config, this.userCwd);
      const connection = await connectMcpServer(name, entry.config, signal, cwd, {
        handlers: this.handlers,
        ...(this.onSecrets ? { onSecrets: this.onSecrets } : {}),
      });
      if (this.closing) {
        await connection.close();
        entry.error = "not started: the run is ending";
        return undefined;
      }
      const limited = limitTools(name, connection.tools, entry.config.limits);
      entry.tools = limited.tools;
      entry.limitWarnings = limited.warnings;
      entry.connection = connection;
      return connection;
    } catch (error) {
      entry.error = `failed to start: ${error instanceof Error ? error.message : String(error)}`;
      return undefined;
    }
  }
}

function stateOf(entry: Entry): McpServerState {
  if (entry.connection) return entry.connection.closedReason() === undefined ? "running" : "closed";
  return entry.started === undefined ? "not started" : "failed";
}

/** Where a user-configured server starts: its `cwd:` (relative to the user's directory), else that
 * directory (see McpServersOptions.userCwd). */
function userServerCwd(config: McpServerConfig, userCwd: string | undefined): string {
  const base = userCwd ?? defaultUserCwd();
  return config.cwd !== undefined ? resolve(base, config.cwd) : base;
}

function defaultUserCwd(): string {
  const dir = configDir();
  return existsSync(dir) ? dir : homedir();
}
