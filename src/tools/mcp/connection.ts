/**
 * One running MCP server, through the official SDK (`@modelcontextprotocol/sdk`, client README: Client,
 * StdioClientTransport, StreamableHTTPClientTransport). Imported only when a run uses a server, so the
 * SDK never loads on a cold start that does not need it.
 *
 * A stdio server's processes carry the exec marker (AGENT_EXEC_ID, see ../process-sweep.ts): closing
 * the connection lets the SDK end the process (stdin closed, then SIGTERM, then SIGKILL) and then
 * SIGKILLs every process still carrying the marker, so a server that forked helpers leaves none behind;
 * a forced exit sweeps them from the exit hook.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  type CallToolResult,
  ErrorCode,
  McpError,
  type Tool as McpToolInfo,
} from "@modelcontextprotocol/sdk/types.js";
import pkg from "../../../package.json" with { type: "json" };
import type { ToolProgress } from "../../kernel/index.ts";
import { EXEC_MARKER, newExecId, releaseExecId, sweepMarked } from "../exec/process-sweep.ts";
import { clientCapabilities, type McpClientHandlers, registerClientHandlers } from "./client-requests.ts";
import { inFlight, unlessAborted } from "./request-scope.ts";
import { DEFAULT_TOOL_TIMEOUT_MS, type McpServerConfig } from "./types.ts";

export type { CallToolResult, McpToolInfo };

/** How much of a stdio server's stderr is kept to explain a failure. */
const STDERR_TAIL = 2_000;

/** How one tool call runs: the run's abort signal, and where its progress notifications go. */
export interface McpCallOptions {
  signal: AbortSignal;
  onProgress?: (progress: ToolProgress) => void;
}

/** A connected server: its tools, a way to call one, and a way to stop it. */
export interface McpConnection {
  tools: McpToolInfo[];
  /** What the server says about using it (InitializeResult.instructions), when it says anything. */
  instructions?: string;
  /** The stdio server's pid (for tests and `agent mcp list`); undefined over HTTP. */
  pid?: number;
  /** Why the connection ended, once it has (the process exited, the server hung up). */
  closedReason(): string | undefined;
  call(name: string, args: Record<string, unknown>, options: McpCallOptions): Promise<CallToolResult>;
  /** Tells the server the roots changed (`notifications/roots/list_changed`). */
  rootsChanged(): Promise<void>;
  close(): Promise<void>;
}

/** Connects and lists the server's tools within `config.startupTimeoutMs` (RequestOptions.timeout of
 * the initialize and tools/list requests); throws a one-line reason. A stdio server starts in `cwd`. */
export async function connectMcpServer(
  name: string,
  config: McpServerConfig,
  signal: AbortSignal,
  cwd?: string,
  handlers: McpClientHandlers = { roots: () => [] },
): Promise<McpConnection> {
  const client = new Client(
    { name: "agent", version: pkg.version },
    { capabilities: clientCapabilities(config, handlers) },
  );
  registerClientHandlers(client, name, config, handlers);
  let stderr = "";
  let closed: string | undefined;
  let marker: string | undefined;
  let transport: StdioClientTransport | StreamableHTTPClientTransport;
  if (config.transport === "stdio") {
    marker = newExecId();
    const stdio = new StdioClientTransport({
      command: config.command,
      args: config.args,
      env: { ...config.env, [EXEC_MARKER]: marker },
      stderr: "pipe",
      ...(cwd !== undefined ? { cwd } : {}),
    });
    stdio.stderr?.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString("utf8")).slice(-STDERR_TAIL);
    });
    transport = stdio;
  } else {
    transport = new StreamableHTTPClientTransport(new URL(config.url), {
      requestInit: { headers: config.headers },
    });
  }
  client.onclose = () => {
    closed ??= `server ${name} exited${stderrNote(stderr)}`;
  };
  const cleanup = async (): Promise<void> => {
    closed ??= `server ${name} was shut down`;
    await client.close().catch(() => undefined);
    if (marker !== undefined) {
      sweepMarked(marker);
      releaseExecId(marker);
    }
  };
  try {
    const timeout = config.startupTimeoutMs;
    // initialize gets no signal: the spec forbids cancelling it; an abort closes the connection instead.
    await unlessAborted(client.connect(transport, { timeout }), signal);
    const tools: McpToolInfo[] = [];
    let cursor: string | undefined;
    do {
      const params = cursor === undefined ? {} : { cursor };
      const page = await inFlight(signal, (own) => client.listTools(params, { timeout, signal: own }));
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    const pid = transport instanceof StdioClientTransport ? (transport.pid ?? undefined) : undefined;
    const instructions = client.getInstructions()?.trim();
    return {
      tools,
      ...(instructions ? { instructions } : {}),
      ...(pid !== undefined ? { pid } : {}),
      closedReason: () => closed,
      call: (tool, args, options) => callTool(client, config, tool, args, options),
      rootsChanged: () => client.sendRootsListChanged(),
      close: cleanup,
    };
  } catch (error) {
    const timedOut = error instanceof McpError && error.code === ErrorCode.RequestTimeout;
    const why = timedOut
      ? `it did not answer within ${config.startupTimeoutMs} ms (startup_timeout_ms)`
      : errorText(error);
    const reason = closed ?? `${why}${stderrNote(stderr)}`;
    await cleanup();
    throw new Error(reason);
  }
}

/**
 * One tools/call. With `onprogress` the SDK puts a progressToken in the request's `_meta` (protocol.js
 * `request`), so a server can report progress; `resetTimeoutOnProgress` restarts the `timeout`
 * (`tool_timeout_ms`) at each notification, so a tool that keeps reporting is never cut at the SDK's
 * 60 s default (DEFAULT_REQUEST_TIMEOUT_MSEC). There is no total cap of our own: the run's --timeout
 * and Ctrl-C bound it through `signal`, which cancels only this call while it is in flight.
 */
async function callTool(
  client: Client,
  config: McpServerConfig,
  name: string,
  args: Record<string, unknown>,
  options: McpCallOptions,
): Promise<CallToolResult> {
  const onProgress = options.onProgress;
  const result = await inFlight(options.signal, (own) =>
    client.callTool({ name, arguments: args }, undefined, {
      signal: own,
      timeout: config.toolTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS,
      resetTimeoutOnProgress: true,
      onprogress: ({ progress, total, message }) =>
        onProgress?.({
          progress,
          ...(total !== undefined ? { total } : {}),
          ...(message !== undefined ? { message } : {}),
        }),
    }),
  );
  return result as CallToolResult;
}

function stderrNote(stderr: string): string {
  const last = stderr.trim().split("\n").at(-1)?.trim();
  return last ? ` (stderr: ${last.slice(0, 300)})` : "";
}

function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split("\n", 1)[0] ?? text;
}
