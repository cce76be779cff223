import type { ModelFamily } from "../kernel/index.ts";
import type { Rule } from "../policy/types.ts";
import { createPrimitives, toolDefinitionsFor } from "../tools/registry.ts";
import type { PrimitiveName } from "../tools/types.ts";

/**
 * Hosts that explicit `allow` rules for fetch name (`fetch:http://localhost:8080/*`): the only way to let
 * fetch reach a private or loopback address. `--on-ask allow` and one-off approvals never lift the guard.
 */
export function fetchHostsAllowedByRules(rules: readonly Rule[]): string[] {
  const hosts = new Set<string>();
  for (const rule of rules) {
    if (rule.effect !== "allow" || rule.tool !== "fetch" || !rule.pattern) continue;
    const match = /^https?:\/\/([^/*?]+)/i.exec(rule.pattern);
    const authority = match?.[1];
    if (!authority) continue;
    try {
      hosts.add(new URL(`http://${authority}`).hostname.replace(/^\[|\]$/g, ""));
    } catch {
      // Not a literal host (a glob in the authority): it names no host, so it lifts nothing.
    }
  }
  return [...hosts];
}

/** The loop's `toolsFor`, with fetch configured from the session's rules. */
export function sessionToolsFor(rules: readonly Rule[]) {
  const primitives = createPrimitives({ fetch: { allowPrivateHosts: fetchHostsAllowedByRules(rules) } });
  return (names: PrimitiveName[], family: ModelFamily) => toolDefinitionsFor(names, family, primitives);
}
