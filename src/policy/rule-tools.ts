import { AppError } from "../kernel/index.ts";
import type { Rule } from "./types.ts";

/**
 * A rule naming a tool that does not exist (`--allow 'exce:npm test'`) would never match anything, so it
 * is an error naming the known tools: usage (exit 2) for flags, config (exit 3) for config files.
 * Every unknown rule of one source is reported at once.
 */
export function checkRuleTools(
  rules: readonly Rule[],
  knownTools: readonly string[],
  where: { source: "flag" | "config"; file?: string },
): void {
  const known = new Set(knownTools);
  const unknown = rules.filter((rule) => !known.has(rule.tool));
  if (unknown.length === 0) return;
  const listed = unknown
    .map((rule) => `${where.source === "flag" ? `--${rule.effect} ` : `${rule.effect}: `}"${rule.text}"`)
    .join(", ");
  const noun = unknown.length === 1 ? "a tool" : "tools";
  const prefix = where.file ? `${where.file}: ` : "";
  throw new AppError(
    where.source === "flag" ? "usage" : "config",
    `${prefix}${listed} ${unknown.length === 1 ? "names" : "name"} ${noun} that does not exist (${[
      ...new Set(unknown.map((r) => r.tool)),
    ].join(", ")}); known tools: ${[...known].join(", ")}`,
    { ...(where.file ? { file: where.file } : {}), field: unknown[0]?.effect ?? "allow" },
  );
}

/**
 * A flag rule naming an MCP server the session does not have (`--deny mcp:githb`) would never match, so
 * a misspelt deny would silently deny nothing: a usage error naming the configured servers. Config rules
 * are left alone, since a user's rules may name the servers of other projects. A server part with glob
 * characters (`mcp:*`/...) is not checked.
 */
export function checkRuleMcpServers(flagRules: readonly Rule[], servers: readonly string[]): void {
  const known = new Set(servers);
  const unknown = flagRules.filter((rule) => {
    if (rule.tool !== "mcp" || rule.pattern === undefined) return false;
    const server = rule.pattern.split("/")[0] ?? "";
    return !/[*?[\]{}]/.test(server) && !known.has(server);
  });
  if (unknown.length === 0) return;
  const listed = unknown.map((rule) => `--${rule.effect} "${rule.text}"`).join(", ");
  const have =
    servers.length > 0
      ? `configured MCP servers: ${[...servers].sort().join(", ")}`
      : "no MCP server is configured";
  throw new AppError(
    "usage",
    `${listed} ${unknown.length === 1 ? "names an MCP server" : "name MCP servers"} this session does not have; ${have}`,
    { field: unknown[0]?.effect ?? "allow" },
  );
}
