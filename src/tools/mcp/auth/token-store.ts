/**
 * Where OAuth state for MCP servers lives: one file per server URL under
 * `$XDG_STATE_HOME/agent/mcp-auth/` (directory 0700, files 0600), holding the tokens, the client
 * registration and the discovery results the SDK asked us to keep. The file name is a hash of the
 * server URL and the file repeats the URL: a record is only ever read back for the URL it was written
 * for, so a token is never offered to another server (the spec's "Token Theft": clients MUST store
 * tokens securely, https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization/security-considerations).
 */
import { createHash, randomBytes } from "node:crypto";
import { chmod, mkdir, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { withFileLock } from "../../../kernel/files/file-lock.ts";
import { stateDir } from "../../../kernel/files/paths.ts";
import { readRegularFile } from "../../../kernel/files/regular-file.ts";

/** What is kept for one server URL. Field names are the file's (snake_case JSON). */
export interface McpAuthRecord {
  server_url: string;
  /** The client registration (dynamic, or a metadata-document URL), as the SDK handed it over. */
  client?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  discovery?: OAuthDiscoveryState;
  /** A scope the server asked for (403 insufficient_scope) that the next login requests. */
  wanted_scope?: string;
  /** The scope the authorization that granted `tokens` asked for. */
  requested_scope?: string;
  /** How many authorizations granted tokens (a refresh keeps the grant): names the grant of `tokens`. */
  grant?: number;
  /** How many grants that asked for `scope` the server refused (403 insufficient_scope) all the same;
   * `grant` is the last one counted. */
  scope_refusals?: { scope: string; count: number; grant: number };
}

/** A stored record is small; anything larger is not ours. */
const MAX_RECORD_BYTES = 256 * 1024;

/**
 * Names the folder of the records when set: `agent eval` gives each task its own XDG_STATE_HOME (its own
 * transcripts) and sets this to the user's folder, so the task's run finds the user's logins.
 */
export const MCP_AUTH_DIR_VARIABLE = "AGENT_MCP_AUTH_DIR";

/** The folder of every record. */
export function mcpAuthDir(env: Record<string, string | undefined> = process.env): string {
  return env[MCP_AUTH_DIR_VARIABLE] || join(stateDir(env), "mcp-auth");
}

/** The file of one server's record: the hash of its URL, so no URL text becomes a path. */
export function mcpAuthFile(
  serverUrl: string,
  env: Record<string, string | undefined> = process.env,
): string {
  const key = createHash("sha256").update(canonicalUrl(serverUrl)).digest("hex").slice(0, 40);
  return join(mcpAuthDir(env), `${key}.json`);
}

/** The record of `serverUrl`, or an empty one (none stored, unreadable, or written for another URL). */
export async function loadAuthRecord(
  serverUrl: string,
  env: Record<string, string | undefined> = process.env,
): Promise<McpAuthRecord> {
  const url = canonicalUrl(serverUrl);
  const empty: McpAuthRecord = { server_url: url };
  try {
    const read = await readRegularFile(mcpAuthFile(url, env), MAX_RECORD_BYTES, { noFollow: true });
    if (!read.ok) return empty;
    const parsed = JSON.parse(read.bytes.toString("utf8")) as Partial<McpAuthRecord>;
    return parsed.server_url === url ? { ...parsed, server_url: url } : empty;
  } catch {
    return empty;
  }
}

/** Writes the record (0600, replacing the old file in one rename; the folder 0700). */
export async function saveAuthRecord(
  record: McpAuthRecord,
  env: Record<string, string | undefined> = process.env,
): Promise<void> {
  const dir = mcpAuthDir(env);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
  const file = mcpAuthFile(record.server_url, env);
  const temp = `${file}.${randomBytes(6).toString("hex")}.tmp`;
  await writeFile(temp, `${JSON.stringify({ ...record, server_url: canonicalUrl(record.server_url) })}\n`, {
    mode: 0o600,
    flag: "wx",
  });
  await rename(temp, file);
}

/**
 * Runs `work` holding the lock of `serverUrl`'s record (`FILE.lock`, see kernel/files/file-lock.ts): every
 * change is a read of the current record, then a write, under this lock, so two runs refreshing at once
 * never write a stale record over a newer one. `work` must not take the lock again.
 */
export async function withAuthRecordLock<T>(
  serverUrl: string,
  env: Record<string, string | undefined>,
  work: () => Promise<T>,
): Promise<T> {
  const dir = mcpAuthDir(env);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  return withFileLock(mcpAuthFile(serverUrl, env), work);
}

/** Re-reads the record under its lock, writes `change(current)`, and returns what was written. */
export async function updateAuthRecord(
  serverUrl: string,
  env: Record<string, string | undefined>,
  change: (current: McpAuthRecord) => McpAuthRecord,
): Promise<McpAuthRecord> {
  return withAuthRecordLock(serverUrl, env, async () => {
    const next = change(await loadAuthRecord(serverUrl, env));
    await saveAuthRecord(next, env);
    return next;
  });
}

/** Forgets everything stored for `serverUrl`; true when there was a record. */
export async function deleteAuthRecord(
  serverUrl: string,
  env: Record<string, string | undefined> = process.env,
): Promise<boolean> {
  const record = await loadAuthRecord(serverUrl, env);
  const had = record.tokens !== undefined || record.client !== undefined || record.discovery !== undefined;
  await rm(mcpAuthFile(serverUrl, env), { force: true });
  return had;
}

/** The URL as a key: parsed and printed, so `HTTP://Host:80/mcp` and `http://host/mcp` are one server. */
export function canonicalUrl(serverUrl: string): string {
  return new URL(serverUrl).href;
}
