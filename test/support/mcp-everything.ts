/** Helpers for tests against the real `@modelcontextprotocol/server-everything` (a devDependency). */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { McpServerConfig } from "../../src/tools/mcp/types.ts";

const ROOT = resolve(import.meta.dir, "../..");
/** The server's entry: `node EVERYTHING stdio` or `node EVERYTHING streamableHttp` (with PORT=). */
export const EVERYTHING = resolve(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
export const STDIO_TAP = resolve(import.meta.dir, "mcp-stdio-tap.ts");

/** A stdio config running server-everything under Node, through the tap when `log` is given. */
export function everythingStdio(log?: string, extra: Partial<McpServerConfig> = {}): McpServerConfig {
  const node = Bun.which("node") ?? "node";
  const args = log !== undefined ? [STDIO_TAP, log, node, EVERYTHING, "stdio"] : [EVERYTHING, "stdio"];
  return {
    transport: "stdio",
    command: log !== undefined ? process.execPath : node,
    args,
    env: {},
    trust: false,
    startupTimeoutMs: 30_000,
    ...extra,
  } as McpServerConfig;
}

/** The JSON-RPC messages the client sent, as the tap logged them. */
export function sentMessages(
  log: string,
): { id?: number; method?: string; params?: Record<string, unknown> }[] {
  let text = "";
  try {
    text = readFileSync(log, "utf8");
  } catch {
    return [];
  }
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line));
}
