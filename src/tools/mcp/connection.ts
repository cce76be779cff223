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

import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult, Tool as McpToolInfo } from "@modelcontextprotocol/sdk/types.js";
import pkg from "../../../package.json" with { type: "json" };
import type { ToolProgress } from "../../kernel/index.ts";
import { EXEC_MARKER, newExecId, releaseExecId, sweepMarked } from "../exec/process-sweep.ts";
import type { Authorizer } from "./auth/authorizer.ts";
import { needsUser } from "./auth/login-required.ts";
import { clientCapabilities, type McpClientHandlers, registerClientHandlers } from "./client-requests.ts";
import { diagnose, firstLine } from "./diagnosis.ts";
import { type HttpConnectionParts, httpConnectionParts } from "./http-transport.ts";
import { inFlight, ServerRequestScope, unlessAborted } from "./request-scope.ts";
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

/** What a connection may use beyond its config. */
export interface ConnectOptions {
  /** Takes a person (or a redirect follower) through an authorization (`agent mcp login`); without one,
   * a server that needs a new authorization fails with `run: agent mcp login NAME`. */
  authorizer?: Authorizer;
  env?: Record<string, string | undefined>;
  /** Answers to the server's own requests (roots, elicitation, sampling); see client-requests.ts. */
  handlers?: McpClientHandlers;
  /** Told every credential the connection reads or receives (the session's redactor learns them). */
  onSecrets?: (values: readonly string[]) => void;
}

/** How many times one operation goes through a new authorization (401, then a 403 scope step-up):
 * bounded, so a server that keeps refusing cannot loop (conformance `auth/scope-retry-limit`). */
const AUTH_ATTEMPTS = 3;

/** Connects and lists the server's tools within `config.startupTimeoutMs` (RequestOptions.timeout of
 * the initialize and tools/list requests); throws a one-line reason. A stdio server starts in `cwd`. */
export async function connectMcpServer(
  name: string,
  config: McpServerConfig,
  signal: AbortSignal,
  cwd?: string,
  connectOptions: ConnectOptions = {},
): Promise<McpConnection> {
  // The server's own requests (a form, a sampling call) end with the call in flight or the connection.
  const scope = new ServerRequestScope();
  const handlers = scopedHandlers(connectOptions.handlers ?? { roots: () => [] }, scope);
  const newClient = (): Client => {
    const made = new Client(
      { name: "agent", version: pkg.version },
      { capabilities: clientCapabilities(config, handlers) },
    );
    registerClientHandlers(made, name, config, handlers);
    return made;
  };
  let client = newClient();
  let stderr = "";
  let closed: string | undefined;
  let marker: string | undefined;
  let transport: StdioClientTransport | StreamableHTTPClientTransport;
  let http: HttpConnectionParts | undefined;
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
    try {
      http = await httpConnectionParts(name, config, connectOptions.authorizer, connectOptions.env, {
        ...(connectOptions.onSecrets ? { onSecrets: connectOptions.onSecrets } : {}),
      });
    } catch (error) {
      throw new Error(error instanceof Error ? error.message : String(error));
    }
    transport = http.transport();
  }
  const watchClose = (c: Client) => {
    c.onclose = () => {
      if (c === client) closed ??= `server ${name} exited${stderrNote(stderr)}`;
    };
  };
  watchClose(client);
  /** After an authorization a user agent was sent to (login), the code is awaited (the login's window,
   * outside any MCP request and its startup_timeout_ms) and exchanged for tokens. */
  const finishAuthorization = async (error: unknown): Promise<boolean> => {
    const code = isAuthFailure(error) ? await connectOptions.authorizer?.waitForCode() : undefined;
    if (code === undefined || !(transport instanceof StreamableHTTPClientTransport)) return false;
    await transport.finishAuth(code);
    return true;
  };
  /**
   * A 403 `insufficient_scope` the SDK could not satisfy (it refreshed, which never widens a grant): with
   * an Authorizer, a new authorization for the scope the server named, then the request again (true); in
   * a run, the scope is kept for the next login and the request fails with the login hint
   * (McpLoginRequired), or, once the server has refused that scope with tokens granted for it too often,
   * with McpScopeRefused (oauth-provider.ts SCOPE_REFUSAL_LIMIT).
   */
  const stepUp = async (error: unknown): Promise<boolean> => {
    const challenge = http?.facts()?.challenge;
    const stored = http?.stored;
    if (!(error instanceof StreamableHTTPError) || error.code !== 403) return false;
    if (challenge?.error !== "insufficient_scope" || challenge.scope === undefined) return false;
    if (stored === undefined || config.transport !== "http") return false;
    const authorizer = connectOptions.authorizer;
    if (authorizer === undefined) throw await stored.requireScope(challenge.scope);
    const { authorizeScope } = await import("./auth/scope-authorization.ts");
    await authorizeScope(stored, authorizer, config.url, challenge.scope, challenge.resourceMetadataUrl);
    return true;
  };
  /** A 403 `insufficient_scope` still there when the attempts are spent: the user's to act on (a login
   * for the scope, or McpScopeRefused once it was refused too often), never a bare HTTP 403. */
  const refusedScope = async (error: unknown): Promise<Error | undefined> => {
    const challenge = http?.facts()?.challenge;
    if (!(error instanceof StreamableHTTPError) || error.code !== 403) return undefined;
    if (challenge?.error !== "insufficient_scope" || challenge.scope === undefined) return undefined;
    return http?.stored?.requireScope(challenge.scope);
  };
  const cleanup = async (): Promise<void> => {
    closed ??= `server ${name} was shut down`;
    scope.close();
    // The spec's session end: clients SHOULD send DELETE with the session id (transport.terminateSession;
    // a 405 means the server keeps sessions itself). Bounded: a hung server cannot hold up the exit.
    if (transport instanceof StreamableHTTPClientTransport) await bounded(transport.terminateSession());
    await client.close().catch(() => undefined);
    if (marker !== undefined) {
      sweepMarked(marker);
      releaseExecId(marker);
    }
  };
  try {
    const timeout = config.startupTimeoutMs;
    const tools: McpToolInfo[] = [];
    for (let attempt = 1; ; attempt++) {
      try {
        // initialize gets no signal: the spec forbids cancelling it; an abort closes the connection instead.
        await unlessAborted(client.connect(transport, { timeout }), signal);
        tools.length = 0;
        let cursor: string | undefined;
        do {
          const params = cursor === undefined ? {} : { cursor };
          const page = await inFlight(signal, (own) => client.listTools(params, { timeout, signal: own }));
          tools.push(...page.tools);
          cursor = page.nextCursor;
        } while (cursor !== undefined);
        break;
      } catch (error) {
        if (attempt >= AUTH_ATTEMPTS) throw (await refusedScope(error)) ?? error;
        if (!(await stepUp(error)) && !(await finishAuthorization(error))) throw error;
        // The authorized retry needs a fresh client and transport (a transport starts once).
        const old = client;
        client = newClient();
        watchClose(client);
        await old.close().catch(() => undefined);
        transport = (http as HttpConnectionParts).transport();
      }
    }
    const pid = transport instanceof StdioClientTransport ? (transport.pid ?? undefined) : undefined;
    const instructions = client.getInstructions()?.trim();
    return {
      tools,
      ...(instructions ? { instructions } : {}),
      ...(pid !== undefined ? { pid } : {}),
      closedReason: () => closed,
      call: async (tool, args, options) => {
        for (let attempt = 1; ; attempt++) {
          try {
            return await scope.during(options.signal, () => callTool(client, config, tool, args, options));
          } catch (error) {
            if (attempt < AUTH_ATTEMPTS && (await stepUp(error))) continue;
            if (attempt >= AUTH_ATTEMPTS || !(await finishAuthorization(error))) {
              // The user must act (log in, or ask for a permission): the typed error, for the warning.
              if (needsUser(error)) throw error;
              const refused = await refusedScope(error);
              if (refused !== undefined) throw refused;
              // Other authorization failures are named; any other error is the caller's to read.
              if (isAuthFailure(error)) {
                throw new Error(scrub(diagnoseFor(error) ?? firstLine(error), http?.secrets() ?? []));
              }
              throw error;
            }
          }
        }
      },
      rootsChanged: () => client.sendRootsListChanged(),
      close: cleanup,
    };
  } catch (error) {
    // A named cause first; else the exit the client saw (with the server's stderr); else the error's text.
    const specific = diagnoseFor(error);
    // ("exited" is a stdio process's end; an HTTP client closing after a failed request says nothing.)
    const exited = config.transport === "stdio" ? closed : undefined;
    const reason =
      specific !== undefined
        ? `${specific}${stderrNote(stderr)}`
        : (exited ?? `${firstLine(error)}${stderrNote(stderr)}`);
    await cleanup();
    throw new Error(scrub(reason, http?.secrets() ?? []));
  }

  function diagnoseFor(error: unknown): string | undefined {
    return diagnose(error, {
      server: name,
      startupTimeoutMs: config.startupTimeoutMs,
      ...(config.transport === "http" ? { url: config.url } : { command: config.command }),
      ...(http?.facts() !== undefined ? { http: http.facts() } : {}),
    });
  }
}

/** The handlers with each server request's signal ended by `scope` too (see ServerRequestScope). */
function scopedHandlers(handlers: McpClientHandlers, scope: ServerRequestScope): McpClientHandlers {
  const { elicit, sample } = handlers;
  return {
    ...handlers,
    ...(elicit
      ? { elicit: (server, params, signal) => elicit(server, params, scope.signalFor(signal)) }
      : {}),
    ...(sample
      ? { sample: (server, params, signal) => sample(server, params, scope.signalFor(signal)) }
      : {}),
  };
}

/** An authorization was asked for (the SDK's UnauthorizedError after a redirect, or a 401/403 status). */
function isAuthFailure(error: unknown): boolean {
  if (error instanceof UnauthorizedError) return true;
  return error instanceof StreamableHTTPError && (error.code === 401 || error.code === 403);
}

/** Waits for `work` at most 2 s, ignoring its failure (best-effort goodbyes). */
async function bounded(work: Promise<unknown>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    work.catch(() => undefined),
    new Promise((resolve) => {
      timer = setTimeout(resolve, 2_000);
    }),
  ]);
  clearTimeout(timer);
}

/** Error text never carries a credential the connection holds. */
function scrub(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 8) out = out.split(secret).join("[REDACTED]");
  return out;
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
