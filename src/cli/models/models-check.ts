/**
 * `agent models --check`: asks every provider with a key which models it serves now (src/llm/model-list.ts)
 * and flags each tier default or configured model it no longer serves (or, for Anthropic, has deprecated).
 *
 * It also lists the catalog's live models the provider no longer lists (unlistedCatalogModels): a
 * warning that the catalog (snapshot, refresh or an override) is out of date, not a failure by itself.
 *
 * Exit codes: 0 every checked model is served (deprecations and unlisted catalog models are warnings) or
 * no key is set; 1 a tier default or configured model is not served; 4 a provider's model list could not
 * be read.
 */
import { ExitCode } from "../../kernel/index.ts";
import { type UnlistedModel, unlistedCatalogModels } from "../../llm/catalog/check.ts";
import { catalogEntries } from "../../llm/catalog.ts";
import { type Endpoint, findEndpoint, keyVarsText, listEndpoints } from "../../llm/endpoints.ts";
import { type LiveModel, listLiveModels } from "../../llm/model-list.ts";
import { DEFAULT_TIER_MODELS, detectProvider, TIERS } from "../../llm/resolve.ts";
import type { AgentConfig } from "../../sdk/config/config.ts";

export interface CheckedModel {
  id: string;
  /** Where the id comes from: "fast default", "best config", ... */
  roles: string[];
  status: "served" | "not_served" | "deprecated";
  retiresAt?: string;
}

export interface ProviderCheck {
  provider: string;
  /** "checked", "no_key" (skipped) or "error" (the list could not be read). */
  state: "checked" | "no_key" | "error";
  /** How many models the provider lists. */
  served: number;
  /** Why the list failed, or which variables to set. */
  detail?: string;
  models: CheckedModel[];
  /** Catalog models of this provider it does not list (native providers only). */
  unlisted: UnlistedModel[];
}

export interface ModelsCheck {
  providers: ProviderCheck[];
  exitCode: number;
}

/** The endpoint a configured model spec (`provider:model` or a bare id) names, and its id. */
function placeSpec(spec: string, endpoints: Endpoint[]): { endpoint: Endpoint; id: string } | undefined {
  const colon = spec.indexOf(":");
  if (colon > 0) {
    const endpoint = findEndpoint(endpoints, spec.slice(0, colon));
    if (endpoint) return { endpoint, id: spec.slice(colon + 1).trim() };
  }
  const provider = detectProvider(spec);
  const endpoint = provider ? findEndpoint(endpoints, provider) : undefined;
  return endpoint ? { endpoint, id: spec.trim() } : undefined;
}

/** Model ids to check per endpoint name, each with the roles it plays. */
function wanted(endpoints: Endpoint[], config: AgentConfig): Map<string, Map<string, string[]>> {
  const out = new Map<string, Map<string, string[]>>();
  const add = (endpoint: string, id: string, role: string): void => {
    const ids = out.get(endpoint) ?? new Map<string, string[]>();
    ids.set(id, [...(ids.get(id) ?? []), role]);
    out.set(endpoint, ids);
  };
  for (const tier of TIERS) {
    for (const endpoint of endpoints) {
      if (endpoint.compatible) continue;
      for (const id of DEFAULT_TIER_MODELS[tier][endpoint.kind]) add(endpoint.name, id, `${tier} default`);
    }
    for (const spec of config.models[tier] ?? []) {
      const placed = placeSpec(spec, endpoints);
      if (placed) add(placed.endpoint.name, placed.id, `${tier} config`);
    }
  }
  return out;
}

function judge(id: string, roles: string[], live: Map<string, LiveModel>): CheckedModel {
  const model = live.get(id);
  if (!model || model.lifecycle === "retired") return { id, roles, status: "not_served" };
  if (model.lifecycle === "deprecated") {
    return { id, roles, status: "deprecated", ...(model.retiresAt ? { retiresAt: model.retiresAt } : {}) };
  }
  return { id, roles, status: "served" };
}

/** Checks every endpoint with a key. */
export async function checkModels(
  env: Record<string, string | undefined>,
  config: AgentConfig,
): Promise<ModelsCheck> {
  const endpoints = listEndpoints(env, config);
  const ids = wanted(endpoints, config);
  const providers = await Promise.all(
    endpoints
      .filter((e) => !e.compatible || ids.has(e.name))
      .map(async (endpoint): Promise<ProviderCheck> => {
        const roles = ids.get(endpoint.name) ?? new Map<string, string[]>();
        if (!endpoint.ready) {
          return {
            provider: endpoint.name,
            state: "no_key",
            served: 0,
            detail: `${keyVarsText(endpoint)} not set`,
            models: [],
            unlisted: [],
          };
        }
        const listed = await listLiveModels(endpoint);
        if (!listed.ok) {
          return {
            provider: endpoint.name,
            state: "error",
            served: 0,
            detail: listed.error.message,
            models: [],
            unlisted: [],
          };
        }
        const live = new Map(listed.models.map((m) => [m.id, m]));
        const models = [...roles].map(([id, r]) => judge(id, r, live));
        // Only the provider's own API speaks for the catalog's models; a compatible server lists its own.
        const unlisted = endpoint.compatible
          ? []
          : unlistedCatalogModels(
              catalogEntries(),
              endpoint.kind,
              listed.models.filter((m) => m.lifecycle !== "retired").map((m) => m.id),
              new Date(),
            );
        return {
          provider: endpoint.name,
          state: "checked",
          served: listed.models.length,
          models,
          unlisted,
        };
      }),
  );
  let exitCode: number = ExitCode.done;
  if (providers.some((p) => p.models.some((m) => m.status === "not_served"))) exitCode = ExitCode.failure;
  if (providers.some((p) => p.state === "error")) exitCode = ExitCode.provider;
  return { providers, exitCode };
}

const STATUS_TEXT: Record<CheckedModel["status"], string> = {
  served: "ok        ",
  not_served: "NOT SERVED",
  deprecated: "deprecated",
};

/** The check as text lines. */
export function formatModelsCheck(check: ModelsCheck): string {
  if (check.providers.every((p) => p.state === "no_key")) {
    const vars = check.providers.map((p) => p.detail?.replace(/ not set$/, "")).join(", ");
    return `No provider key is set (${vars}): no live model list to check.\n`;
  }
  const lines: string[] = [];
  for (const p of check.providers) {
    if (p.state === "no_key") lines.push(`${p.provider}: skipped (${p.detail})`);
    else if (p.state === "error") lines.push(`${p.provider}: cannot list models: ${p.detail}`);
    else {
      lines.push(`${p.provider}: serves ${p.served} models`);
      const width = Math.max(...p.models.map((m) => m.id.length), 0);
      for (const m of p.models) {
        const retires = m.retiresAt ? `; retires ${m.retiresAt}` : "";
        lines.push(`  ${STATUS_TEXT[m.status]}  ${m.id.padEnd(width)}  ${m.roles.join(", ")}${retires}`);
      }
      for (const u of p.unlisted) lines.push(`  UNLISTED    ${u.id}: ${u.note}`);
    }
  }
  const flagged = check.providers.flatMap((p) => p.models.filter((m) => m.status === "not_served"));
  if (flagged.length > 0) {
    lines.push("", `${flagged.length} model(s) not served: update models: in config.yaml or upgrade agent.`);
  }
  const unlisted = check.providers.reduce((n, p) => n + p.unlisted.length, 0);
  if (unlisted > 0) {
    lines.push(
      "",
      `${unlisted} catalog model(s) not listed by their provider: agent models --refresh, or upgrade agent.`,
    );
  }
  return `${lines.join("\n")}\n`;
}
