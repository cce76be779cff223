/**
 * Why a server could not be used, in words a person can act on: the HTTP status and content type of the
 * MCP endpoint's answer (an HTML page, something not JSON), a refused connection, a command that does not
 * exist, authorization needed. One line, used by `agent mcp list`, the run's warning and its JSON result.
 */
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { BodyTooLarge } from "../../kernel/net/capped-body.ts";
import { UnsafeAuthorizationUrl } from "./auth/authorizer.ts";
import { needsUser } from "./auth/login-required.ts";

/** The last answer of a server's MCP URL. */
export interface HttpFacts {
  status: number;
  statusText: string;
  contentType: string | undefined;
  method: string;
  /** The WWW-Authenticate challenge of a 401 or 403 (RFC 6750 §3: error, scope, resource_metadata). */
  challenge?: { error?: string; scope?: string; resourceMetadataUrl?: string };
}

export interface DiagnosisFacts {
  server: string;
  startupTimeoutMs: number;
  url?: string;
  command?: string;
  http?: HttpFacts;
}

/** The one-line reason for `error` when it is one of the named cases; undefined for anything else. */
export function diagnose(error: unknown, facts: DiagnosisFacts): string | undefined {
  // Refusals of our own OAuth checks say exactly what was refused; a 401 seen before them is not the cause.
  if (needsUser(error) || error instanceof UnsafeAuthorizationUrl || error instanceof BodyTooLarge) {
    return error.message;
  }
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
    return `it did not answer within ${facts.startupTimeoutMs} ms (startup_timeout_ms)`;
  }
  const code = errnoCode(error);
  if (facts.command !== undefined && code === "ENOENT") return `command not found: ${facts.command}`;
  if (facts.command !== undefined && code === "EACCES") return `command is not executable: ${facts.command}`;
  if (facts.url !== undefined) {
    const http = httpReason(error, facts);
    if (http !== undefined) return http;
  }
  return undefined;
}

function httpReason(error: unknown, facts: DiagnosisFacts): string | undefined {
  const where = facts.url as string;
  const status = error instanceof StreamableHTTPError && error.code !== undefined ? error.code : undefined;
  if (error instanceof UnauthorizedError || status === 401 || facts.http?.status === 401) {
    return `it needs authorization (HTTP 401); run: agent mcp login ${facts.server}`;
  }
  if (status === 403 || (facts.http?.status === 403 && error instanceof StreamableHTTPError)) {
    return `HTTP 403 Forbidden from ${where}: the server refused this client${/upscoping/.test(firstLine(error)) ? " even after asking for the scope it named" : ""}`;
  }
  const http = facts.http;
  if (http !== undefined && http.status >= 400) {
    const text = http.statusText ? ` ${http.statusText}` : "";
    return `HTTP ${http.status}${text} from ${where}${pageNote(http.contentType)}`;
  }
  if (error instanceof StreamableHTTPError && /Unexpected content type/.test(error.message)) {
    return `${where} answered ${http?.contentType ?? "an unknown content type"}, not JSON or an event stream${pageNote(http?.contentType)}`;
  }
  if (error instanceof SyntaxError || isZodError(error)) {
    return `${where} answered content that is not an MCP JSON-RPC message (content type ${http?.contentType ?? "none"})`;
  }
  const code = errnoCode(error);
  const host = new URL(where).host;
  if (
    code === "ECONNREFUSED" ||
    code === "ConnectionRefused" ||
    /Unable to connect|ECONNREFUSED/i.test(allText(error))
  ) {
    return `connection refused at ${host} (is the server running?)`;
  }
  if (code === "ENOTFOUND" || /ENOTFOUND|getaddrinfo/i.test(allText(error))) return `host not found: ${host}`;
  return undefined;
}

function pageNote(contentType: string | undefined): string {
  if (contentType === undefined) return "";
  if (/text\/html/i.test(contentType)) return " (an HTML page: is the URL the server's MCP endpoint?)";
  if (!/json|event-stream/i.test(contentType)) return ` (${contentType})`;
  return "";
}

function isZodError(error: unknown): boolean {
  return error instanceof Error && error.name === "ZodError";
}

/** The errno-style code of an error or of its cause (fetch wraps the socket's). */
function errnoCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e instanceof Object && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

function allText(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error, depth = 0; e !== undefined && depth < 4; depth++) {
    parts.push(e instanceof Error ? e.message : String(e));
    e = e instanceof Error ? (e as { cause?: unknown }).cause : undefined;
  }
  return parts.join(" ");
}

/** The first line of an error's message. */
export function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split("\n", 1)[0] ?? text;
}
