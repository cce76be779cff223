/**
 * A suite is code the user runs, and may come with a repository: like a project's `.agent/config.yaml`
 * (which may add only ask and deny rules), it may not loosen what the user's own config allows unless the
 * user trusts it. The loosening settings are `sandbox: off`, `on_ask: allow` and `allow:` rules, in
 * `defaults:` or in a task. A suite is trusted by `agent eval --trust-suite` or by its real path in the
 * user config's `trusted_suites`; an untrusted one that sets any of them is refused before any task runs,
 * each setting named as `FILE:LINE: FIELD: message` (docs/eval.md "Trust"). A setting the user's config
 * already grants (`sandbox.mode: off`, `defaults.on_ask: allow`, the same rule in `rules.allow`) loosens
 * nothing and passes.
 */
import { realpathSync } from "node:fs";
import { resolve } from "node:path";
import type { AgentConfig } from "../../../sdk/config/config.ts";
import type { SuiteFile } from "./suite-schema.ts";

/** One loosening setting of a suite, where it is written. */
export interface SuiteGrant {
  line: number;
  /** `defaults.sandbox`, `tasks[2].allow[0]`. */
  field: string;
  grant: { kind: "sandbox-off" } | { kind: "on-ask-allow" } | { kind: "allow"; rule: string };
}

/** Every loosening setting of a valid suite; `at` gives the line of a path in the document. */
export function suiteGrants(suite: SuiteFile, at: (segments: (string | number)[]) => number): SuiteGrant[] {
  const grants: SuiteGrant[] = [];
  const scan = (
    settings: Pick<SuiteFile["tasks"][number], "sandbox" | "on_ask" | "allow">,
    path: (string | number)[],
    name: string,
  ) => {
    if (settings.sandbox === "off")
      grants.push({
        line: at([...path, "sandbox"]),
        field: `${name}.sandbox`,
        grant: { kind: "sandbox-off" },
      });
    if (settings.on_ask === "allow")
      grants.push({
        line: at([...path, "on_ask"]),
        field: `${name}.on_ask`,
        grant: { kind: "on-ask-allow" },
      });
    for (const [j, rule] of (settings.allow ?? []).entries())
      grants.push({
        line: at([...path, "allow", j]),
        field: `${name}.allow[${j}]`,
        grant: { kind: "allow", rule },
      });
  };
  if (suite.defaults) scan(suite.defaults, ["defaults"], "defaults");
  for (const [i, task] of suite.tasks.entries()) scan(task, ["tasks", i], `tasks[${i}]`);
  return grants.sort((a, b) => a.line - b.line);
}

/** Whether the user trusts the suite at `file`: `--trust-suite`, or its real path listed in `trusted_suites`. */
export function suiteTrusted(file: string, config: AgentConfig, flag: boolean): boolean {
  if (flag) return true;
  const real = realOrResolved(file);
  return (config.trustedSuites ?? []).some((listed) => realOrResolved(listed) === real);
}

/**
 * The grants of an untrusted suite that loosen the user's config, as suite errors (exit 3); none for a
 * trusted suite. `configFile` names the config in the message.
 */
export function untrustedGrants(
  file: string,
  grants: readonly SuiteGrant[],
  config: AgentConfig,
  configFile: string,
): { file: string; line: number; field: string; message: string }[] {
  const how = `trust the suite with --trust-suite, or list ${realOrResolved(file)} in trusted_suites of ${configFile}`;
  return grants
    .filter(({ grant }) => !configGrants(config, grant))
    .map(({ line, field, grant }) => ({ file, line, field, message: `${what(grant)}; ${how}` }));
}

/** True when the user's config already allows what the suite asks for. */
function configGrants(config: AgentConfig, grant: SuiteGrant["grant"]): boolean {
  if (grant.kind === "sandbox-off") return config.sandbox?.mode === "off";
  if (grant.kind === "on-ask-allow") return config.defaults.onAsk === "allow";
  return config.rules.allow.includes(grant.rule);
}

function what(grant: SuiteGrant["grant"]): string {
  if (grant.kind === "sandbox-off")
    return "sandbox: off would run the task and its checks outside the sandbox; an untrusted suite may not turn it off";
  if (grant.kind === "on-ask-allow")
    return "on_ask: allow would approve every tool call that asks; an untrusted suite may not set it";
  return `allow rule "${grant.rule}" is not in your config; an untrusted suite may not add allow rules`;
}

function realOrResolved(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}
