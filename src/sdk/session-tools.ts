import type { ModelFamily } from "../kernel/index.ts";
import type { Rule } from "../policy/types.ts";
import { createPrimitives, toolDefinitionsFor } from "../tools/registry.ts";
import type { PrimitiveName } from "../tools/types.ts";

/**
 * Origins (scheme, host and port) that explicit `allow` rules for fetch name (`fetch:http://localhost:8080/*`
 * names `http://localhost:8080`): the only way to let fetch reach a private or loopback address, and only
 * at that port. `--on-ask allow` and one-off approvals never lift the guard.
 */
export function fetchOriginsAllowedByRules(rules: readonly Rule[]): string[] {
  const origins = new Set<string>();
  for (const rule of rules) {
    if (rule.effect !== "allow" || rule.tool !== "fetch" || !rule.pattern) continue;
    // The authority must be literal and complete: `http://host*` or `http://host:*` names no origin.
    const match = /^(https?):\/\/([^/*?\\]+)(?:\/|$)/i.exec(rule.pattern);
    if (!match) continue;
    try {
      origins.add(new URL(`${match[1]}://${match[2]}`).origin);
    } catch {
      // Not a valid authority: it names no origin, so it lifts nothing.
    }
  }
  return [...origins];
}

/** The loop's `toolsFor`, with fetch configured from the session's rules. */
export function sessionToolsFor(rules: readonly Rule[]) {
  const primitives = createPrimitives({ fetch: { allowPrivateOrigins: fetchOriginsAllowedByRules(rules) } });
  return (names: PrimitiveName[], family: ModelFamily) => toolDefinitionsFor(names, family, primitives);
}
