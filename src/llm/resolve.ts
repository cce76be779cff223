/**
 * Model resolution: a tier (`fast`, `good`, `best`; `smart` = best, `auto` = fast), `provider:model`,
 * or a bare model id whose provider is detected, becomes a ModelRef with its fallback chain and a
 * human-readable reason. Providers are tried in the order Anthropic, OpenAI, Gemini among those with
 * credentials; config may replace a tier's candidate list.
 */
import { AppError, type ModelRef, type ProviderKind } from "../kernel/index.ts";
import { nearestName } from "../kernel/text/nearest-name.ts";
import { ALIAS_LINES, aliasTarget, chooseTier, type Tier, type TierChoice } from "./catalog/tiers.ts";
import { catalogLines, catalogProvider } from "./catalog.ts";
import {
  type Endpoint,
  type Env,
  findEndpoint,
  keyVarsText,
  listEndpoints,
  type ModelsConfig,
  NATIVE_PROVIDERS,
} from "./endpoints.ts";

export type { Tier, TierChoice } from "./catalog/tiers.ts";
export const TIERS: readonly Tier[] = ["fast", "good", "best"];

/** Names accepted where a tier is expected. `smart` is an alias of best. `auto` is decided from the task
 * before resolution (src/agents/loop/tier-classifier.ts `decideAuto`); its `fast` here only lets a spec that
 * names `auto` pass the model check. */
export const TIER_NAMES: Readonly<Record<string, Tier>> = {
  fast: "fast",
  good: "good",
  best: "best",
  smart: "best",
  auto: "fast",
};

const PROVIDERS: readonly ProviderKind[] = ["anthropic", "openai", "gemini"];

/**
 * Default candidates per tier and provider, best first, chosen from the catalog by each tier's rule
 * (src/llm/catalog/tiers.ts) on first read, so they follow the catalog (snapshot, refresh, overrides)
 * rather than a hand-kept list. Read lazily: importing this module costs no catalog load.
 */
export const DEFAULT_TIER_MODELS: Readonly<Record<Tier, Readonly<Record<ProviderKind, readonly string[]>>>> =
  Object.fromEntries(
    TIERS.map((tier) => [
      tier,
      Object.defineProperties(
        {},
        Object.fromEntries(
          PROVIDERS.map((provider) => [
            provider,
            {
              enumerable: true,
              get: () => chooseTier(catalogLines(), tier, provider, new Date()).candidates,
            },
          ]),
        ),
      ),
    ]),
  ) as Record<Tier, Record<ProviderKind, readonly string[]>>;

/** Each tier's choice per provider and why (for `agent models`), on `now` (default today). */
export function explainTiers(now: Date = new Date()): TierChoice[] {
  const lines = catalogLines();
  return TIERS.flatMap((tier) => PROVIDERS.map((provider) => chooseTier(lines, tier, provider, now)));
}

/** The aliases people may type (`sonnet`, `sol`, `flash`, ...), for help and errors. */
export function aliasNames(): string[] {
  return Object.keys(ALIAS_LINES);
}

/** The model an alias names today: the newest generally available model of its line. */
export function resolveAlias(
  name: string,
  now: Date = new Date(),
): { provider: ProviderKind; id: string } | undefined {
  const target = aliasTarget(catalogLines(), name.trim(), now);
  return target ? { provider: target.provider, id: target.id } : undefined;
}

/** A resolved model: the ref to call (with fallbacks) and why it was chosen. */
export interface ResolvedModel {
  ref: ModelRef;
  /** e.g. "fast → claude-haiku-5-5 (ANTHROPIC_API_KEY set)". */
  reason: string;
  /** The tier, when the name was one. */
  tier?: Tier;
  /** Where the candidate list came from. */
  source: "default" | "config" | "explicit";
}

export interface ResolveOptions {
  env: Env;
  config?: ModelsConfig;
  /** False for replay: no key is needed, so a candidate without credentials may be chosen. Default true. */
  requireCredentials?: boolean;
  /** Error kind for a malformed name: "usage" for flags (exit 2), "config"/"spec" for files (exit 3). */
  nameErrorKind?: "usage" | "config" | "spec";
}

/** The provider a bare model id belongs to, from its shape or the catalog. */
export function detectProvider(id: string): ProviderKind | undefined {
  const lower = id.toLowerCase();
  if (lower.startsWith("claude-")) return "anthropic";
  if (/^(gpt-|chatgpt-|o\d)/.test(lower)) return "openai";
  if (lower.startsWith("gemini-")) return "gemini";
  return catalogProvider(id);
}

interface Candidate {
  endpoint: Endpoint;
  id: string;
  spec: string;
}

function providerNamesText(endpoints: Endpoint[]): string {
  const compatible = endpoints.filter((e) => e.compatible).map((e) => e.name);
  return ["anthropic", "openai", "gemini (or google)", ...compatible].join(", ");
}

/** Parses `provider:model` or a bare id into an endpoint and model id. */
function parseSpec(
  spec: string,
  endpoints: Endpoint[],
  errorKind: ResolveOptions["nameErrorKind"],
): Candidate {
  const kind = errorKind ?? "usage";
  const trimmed = spec.trim();
  const colon = trimmed.indexOf(":");
  if (colon > 0) {
    const prefix = trimmed.slice(0, colon);
    const endpoint = findEndpoint(endpoints, prefix);
    if (endpoint) {
      const id = trimmed.slice(colon + 1).trim();
      if (id === "") throw new AppError(kind, `model "${spec}" names no model after "${prefix}:"`);
      return { endpoint, id, spec: trimmed };
    }
  }
  if (trimmed === "") throw new AppError(kind, "empty model name");
  const alias = ALIAS_LINES[trimmed.toLowerCase()] ? resolveAlias(trimmed) : undefined;
  if (alias) {
    const endpoint = findEndpoint(endpoints, alias.provider);
    if (endpoint) return { endpoint, id: alias.id, spec: trimmed };
  }
  const provider = detectProvider(trimmed);
  if (provider === undefined) {
    const hint =
      colon > 0
        ? `unknown provider "${trimmed.slice(0, colon)}" in "${spec}"; providers: ${providerNamesText(endpoints)} (declare openai-compatible servers under providers: in config.yaml)`
        : `cannot tell which provider serves "${spec}";${nearModelName(trimmed)} write it as provider:model with one of ${providerNamesText(endpoints)}, use a tier (${TIER_LIST}), or an alias (${aliasNames().join(", ")})`;
    throw new AppError(kind, hint);
  }
  const endpoint = findEndpoint(endpoints, provider);
  if (!endpoint) throw new AppError(kind, `no endpoint for provider ${provider}`);
  return { endpoint, id: trimmed, spec: trimmed };
}

/** Every tier name a model can be given as, as errors list them. */
const TIER_LIST = "fast, good, best, smart = best, auto = chosen per task";

/** ` did you mean "fast"?` for a mistyped tier or alias (`fats`), or "" when none is close. */
function nearModelName(typed: string): string {
  const near = nearestName(typed, [...Object.keys(TIER_NAMES), ...aliasNames()]);
  return near === undefined ? "" : ` did you mean "${near}"?`;
}

function toRef(candidate: Candidate): ModelRef {
  return { provider: candidate.endpoint.kind, providerName: candidate.endpoint.name, id: candidate.id };
}

function credentialText(endpoint: Endpoint): string {
  if (endpoint.keyVar) return `${endpoint.keyVar} set`;
  if (endpoint.compatible) return `openai-compatible at ${endpoint.baseUrl ?? "?"}`;
  return "no credentials: replay";
}

function withFallbacks(chosen: Candidate[]): ModelRef {
  const [first, ...rest] = chosen;
  if (!first) throw new Error("no candidates");
  const ref = toRef(first);
  if (rest.length > 0) ref.fallbacks = rest.map(toRef);
  return ref;
}

/** "ANTHROPIC_API_KEY, OPENAI_API_KEY or GEMINI_API_KEY (or GOOGLE_API_KEY)". */
function missingText(endpoints: Endpoint[]): string {
  const parts = endpoints.map((e) => {
    const [first, ...others] = e.keyVars;
    return others.length > 0 ? `${first} (or ${others.join(", ")})` : (first ?? e.name);
  });
  if (parts.length <= 1) return parts.join("");
  return `${parts.slice(0, -1).join(", ")} or ${parts[parts.length - 1]}`;
}

function tierCandidates(
  tier: Tier,
  endpoints: Endpoint[],
  options: ResolveOptions,
): [Candidate[], ResolvedModel["source"]] {
  const override = options.config?.models?.[tier];
  if (override && override.length > 0) {
    return [override.map((spec) => parseSpec(spec, endpoints, "config")), "config"];
  }
  const natives = NATIVE_PROVIDERS.flatMap((native) => {
    const endpoint = findEndpoint(endpoints, native.name);
    return endpoint ? [{ endpoint, provider: native.name }] : [];
  });
  const defaults = (from: typeof natives): Candidate[] =>
    from.flatMap(({ endpoint, provider }) =>
      DEFAULT_TIER_MODELS[tier][provider].map((id) => ({ endpoint, id, spec: id })),
    );
  // Only candidates with credentials are called; the tier's other providers are chosen (each a catalog
  // walk) only when none of those has one: for the error naming their keys, or for a replay.
  const ready = defaults(natives.filter(({ endpoint }) => endpoint.ready));
  return [ready.length > 0 ? ready : defaults(natives), "default"];
}

/** Gives a tier's refs (the chosen one and its fallbacks) the reasoning effort config sets for it. */
function withTierEffort(resolved: ResolvedModel, tier: Tier, options: ResolveOptions): ResolvedModel {
  const effort = options.config?.reasoningEffort?.[tier];
  if (effort === undefined) return resolved;
  const mark = (ref: ModelRef): ModelRef => {
    const marked: ModelRef = { ...ref, reasoningEffort: effort };
    if (ref.fallbacks) marked.fallbacks = ref.fallbacks.map(mark);
    return marked;
  };
  return { ...resolved, ref: mark(resolved.ref) };
}

function resolveTier(
  name: string,
  tier: Tier,
  endpoints: Endpoint[],
  options: ResolveOptions,
): ResolvedModel {
  const [candidates, source] = tierCandidates(tier, endpoints, options);
  const requireCredentials = options.requireCredentials ?? true;
  const ready = candidates.filter((c) => c.endpoint.ready);
  const label = name === tier ? tier : `${name} (= ${tier})`;
  if (ready.length === 0) {
    if (requireCredentials || candidates.length === 0) {
      const needed = [...new Set(candidates.map((c) => c.endpoint))].filter((e) => !e.ready);
      const what =
        source === "config"
          ? `config maps ${tier} to ${candidates.map((c) => c.spec).join(", ")}, and none has credentials`
          : `no provider key found for tier ${tier}`;
      throw new AppError("config", `${what}: set ${missingText(needed)}`);
    }
    const [first] = candidates;
    if (!first) throw new AppError("config", `tier ${tier} has no candidates`);
    return {
      ref: toRef(first),
      reason: `${label} → ${first.spec} (no credentials needed for replay)`,
      tier,
      source,
    };
  }
  const [first] = ready;
  if (!first) throw new Error("unreachable");
  const origin = source === "config" ? `config models.${tier}; ` : "";
  return {
    ref: withFallbacks(ready),
    reason: `${label} → ${first.spec} (${origin}${credentialText(first.endpoint)})`,
    tier,
    source,
  };
}

/**
 * Resolves a tier, `provider:model` or bare id. Throws AppError("config") naming the variables to set
 * when no candidate has credentials (unless `requireCredentials` is false), AppError(nameErrorKind)
 * for a name it cannot place.
 */
export function resolveModel(name: string, options: ResolveOptions): ResolvedModel {
  const endpoints = listEndpoints(options.env, options.config);
  const tier = TIER_NAMES[name.trim().toLowerCase()];
  if (tier)
    return withTierEffort(resolveTier(name.trim().toLowerCase(), tier, endpoints, options), tier, options);

  const candidate = parseSpec(name, endpoints, options.nameErrorKind);
  const requireCredentials = options.requireCredentials ?? true;
  if (!candidate.endpoint.ready && requireCredentials) {
    throw new AppError(
      "config",
      `model ${name} needs ${keyVarsText(candidate.endpoint)} (not set) for provider ${candidate.endpoint.name}`,
    );
  }
  const aliased = ALIAS_LINES[name.trim().toLowerCase()];
  const detected = aliased
    ? `alias: the newest generally available ${aliased.line} model; `
    : name.includes(":") && name.trim() !== candidate.id
      ? ""
      : `${candidate.endpoint.name}, detected from id; `;
  return {
    ref: toRef(candidate),
    reason: `${name.trim()} → ${candidate.endpoint.name}:${candidate.id} (${detected}${
      candidate.endpoint.ready ? credentialText(candidate.endpoint) : "no credentials needed for replay"
    })`,
    source: "explicit",
  };
}
