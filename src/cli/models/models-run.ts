/**
 * `agent models`: for the current environment, which key variables were found (names only, never
 * values), what each tier resolves to and why, config overrides and openai-compatible providers.
 */
import { AppError, type ProviderKind } from "../../kernel/index.ts";
import { Redactor } from "../../kernel/text/redact.ts";
import { type CatalogEntry, catalogEntries, catalogSource, overridesChecked } from "../../llm/catalog.ts";
import { listEndpoints } from "../../llm/endpoints.ts";
import { serverAnswers } from "../../llm/local/server-probe.ts";
import { explainTiers, resolveModel, TIERS, type Tier } from "../../llm/resolve.ts";
import { type AgentConfig, configFile, loadConfig } from "../../sdk/config/config.ts";
import { CliExit } from "../shared/command-module.ts";
import { type CommandIo, processIo } from "../shared/io/command-io.ts";
import { withOneLineStrings } from "../shared/io/terminal-out.ts";
import { formatTierExplanations, type TierExplanation, tierExplanations } from "./models-tiers.ts";

export interface ModelsReport {
  config: { file: string; found: boolean };
  providers: {
    name: string;
    kind: string;
    compatible: boolean;
    /** Variables that may hold the key; `keyFound` is the one that did (a name, never a value). */
    keyVars: string[];
    keyFound: string | null;
    /** A key was found; for a server that needs none (a local Ollama), it answered just now. */
    ready: boolean;
    /** Servers without a key: whether one GET of its model list answered (null when not probed). */
    answers: boolean | null;
    baseUrl: string | null;
    baseUrlVar: string | null;
  }[];
  tiers: {
    tier: Tier;
    model: string | null;
    provider: string | null;
    reason: string;
    fallbacks: string[];
    source: "default" | "config" | null;
  }[];
  overrides: Partial<Record<Tier, string[]>>;
  /** Where the catalog's models.dev data came from (snapshot commit or refresh URL) and its date, and the
   * day our cited overrides were last checked. */
  catalog: { source: string; date: string; overridesChecked: string };
  /** Each tier's candidates per provider by the catalog's rules, and why. */
  tierRules: TierExplanation[];
  /** True when no native provider has a key, so tierRules covers every provider. */
  tierRulesForAll: boolean;
  /** The catalog's known chat models per provider (prices and context windows known; any other id works
   * too); deprecated, shut-down and non-chat (embedding, speech, image) models only with `--all`. */
  known: Record<string, string[]>;
}

/** Deprecated by its provider, or past its shutdown day. */
function retired(entry: CatalogEntry, now: Date): boolean {
  if (entry.status === "deprecated") return true;
  return entry.retires !== undefined && Date.parse(`${entry.retires}T00:00:00Z`) <= now.getTime();
}

/** Ids in the order a person looks them up: by name, numbers by value (`gpt-5.2` before `gpt-5.10`). */
const byName = new Intl.Collator("en", { numeric: true }).compare;

/** The catalog's model ids grouped by provider: providers and ids sorted by name (byName). */
function knownModels(all: boolean, now: Date): Record<string, string[]> {
  const known: Record<string, string[]> = {};
  for (const entry of catalogEntries()) {
    if (!all && (retired(entry, now) || entry.nonChat)) continue;
    const ids = known[entry.provider] ?? [];
    ids.push(entry.id);
    known[entry.provider] = ids;
  }
  return Object.fromEntries(
    Object.keys(known)
      .sort(byName)
      .map((provider) => [provider, (known[provider] ?? []).sort(byName)]),
  );
}

/**
 * Builds the report without printing it. A server that needs no key (a local Ollama) is called ready
 * only when it answers now (`options.probe`: one bounded GET each, in parallel; server-probe.ts).
 */
export async function modelsReport(
  env: Record<string, string | undefined>,
  config: AgentConfig,
  options: { all?: boolean; now?: Date; probe?: (baseUrl: string) => Promise<boolean> } = {},
): Promise<ModelsReport> {
  const probe = options.probe ?? serverAnswers;
  const now = options.now ?? new Date();
  const redactor = Redactor.fromEnv(env);
  const endpoints = listEndpoints(env, config);
  const answers = await Promise.all(
    endpoints.map((e) =>
      e.keyVars.length === 0 && e.baseUrl !== undefined ? probe(e.baseUrl) : Promise.resolve(null),
    ),
  );
  const providers = endpoints.map((e, i) => ({
    name: e.name,
    kind: e.compatible ? "openai-compatible" : e.kind,
    compatible: e.compatible,
    keyVars: e.keyVars,
    keyFound: e.keyVar ?? null,
    ready: e.ready && answers[i] !== false,
    answers: answers[i] ?? null,
    baseUrl: e.baseUrl ? redactor.redact(e.baseUrl) : null,
    baseUrlVar: e.baseUrlVar ?? null,
  }));
  const tiers = TIERS.map((tier) => {
    try {
      const resolved = resolveModel(tier, { env, config });
      return {
        tier,
        model: resolved.ref.id,
        provider: resolved.ref.providerName,
        reason: resolved.reason,
        fallbacks: (resolved.ref.fallbacks ?? []).map((f) => `${f.providerName}:${f.id}`),
        source: resolved.source === "config" ? ("config" as const) : ("default" as const),
      };
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return { tier, model: null, provider: null, reason: error.message, fallbacks: [], source: null };
    }
  });
  const keyed = [
    ...new Set(endpoints.filter((e) => e.ready && !e.compatible).map((e) => e.kind as ProviderKind)),
  ];
  const forAll = keyed.length === 0;
  const shown: ProviderKind[] = forAll ? ["anthropic", "openai", "gemini"] : keyed;
  const pinned = new Set(tiers.filter((t) => t.source === "config").map((t) => t.tier as string));
  return {
    config: { file: config.file ?? configFile(env), found: config.file !== undefined },
    providers,
    tiers,
    overrides: config.models,
    catalog: { ...catalogSource(), overridesChecked: overridesChecked() },
    tierRules: tierExplanations(explainTiers(now), shown, pinned),
    tierRulesForAll: forAll,
    known: knownModels(options.all === true, now),
  };
}

/** The report as aligned text lines. */
export function formatModelsReport(report: ModelsReport): string {
  const lines: string[] = [];
  lines.push(`Config: ${report.config.file}${report.config.found ? "" : " (not found; using defaults)"}`);
  lines.push("", "Providers (in preference order):");
  for (const p of report.providers) {
    let key: string;
    if (p.keyFound) key = `${p.keyFound} found`;
    else if (p.keyVars.length === 0)
      key = p.answers === false ? "no key needed; not answering" : "no key needed; answering";
    else key = `${p.keyVars.join(" or ")} not set`;
    const base = p.baseUrl
      ? `; base URL ${p.baseUrl}${p.baseUrlVar ? ` (${p.baseUrlVar})` : ""}`
      : p.baseUrlVar
        ? `; ${p.baseUrlVar} not set (default endpoint)`
        : "";
    const kind = p.compatible ? " [openai-compatible]" : "";
    lines.push(`  ${p.name.padEnd(10)} ${p.ready ? "ready      " : "unavailable"} ${key}${base}${kind}`);
  }
  lines.push("", "Tiers (smart = best; auto picks one of them from the task):");
  for (const t of report.tiers) {
    if (t.model === null) {
      lines.push(`  ${t.tier.padEnd(5)} unavailable: ${t.reason}`);
      continue;
    }
    const fallbacks = t.fallbacks.length > 0 ? `; then ${t.fallbacks.join(", ")}` : "";
    lines.push(`  ${t.tier.padEnd(5)} ${t.provider}:${t.model}  ${t.reason}${fallbacks}`);
  }
  lines.push("", ...formatTierExplanations(report.tierRules, report.tierRulesForAll));
  const overrides = Object.entries(report.overrides);
  lines.push("", overrides.length > 0 ? "Config overrides:" : "Config overrides: none");
  for (const [tier, list] of overrides) lines.push(`  models.${tier}: ${(list ?? []).join(", ")}`);
  lines.push(
    "",
    `Catalog: ${report.catalog.source}, ${report.catalog.date} (agent models --refresh fetches a newer one);`,
    `  our cited overrides (tiers, prices, retirements) checked ${report.catalog.overridesChecked}`,
    "Known chat models (catalog: context window and prices; other ids work with conservative defaults;",
    "  deprecated, shut-down and non-chat models are listed with --all):",
  );
  for (const [provider, ids] of Object.entries(report.known))
    lines.push(`  ${provider.padEnd(10)} ${ids.join(", ")}`);
  return `${lines.join("\n")}\n`;
}

export interface ModelsFlags {
  json?: boolean;
  check?: boolean;
  refresh?: boolean;
  all?: boolean;
}

/**
 * Runs `agent models`: with `--refresh`, downloads the catalog first (models-refresh.ts; exit 4 when it
 * fails); with `--check`, the live check of models-check.ts, which sets the exit code.
 */
export async function runModels(flags: ModelsFlags, io: CommandIo = processIo()): Promise<void> {
  const config = await loadConfig(io.env);
  if (flags.refresh) {
    // The refresh (a network fetch) and the live check load only with their flags.
    const { refreshModels } = await import("./models-refresh.ts");
    await refreshModels(io);
    if (!flags.check) return;
  }
  if (flags.check) {
    const { checkModels, formatModelsCheck } = await import("./models-check.ts");
    const check = await checkModels(io.env, config);
    // What a provider's server or the catalog names is shown one field per line (withOneLineStrings).
    if (flags.json) io.stdout.json(check, 2);
    else io.stdout.write(formatModelsCheck(withOneLineStrings(check)));
    if (check.exitCode !== 0) throw new CliExit(check.exitCode);
    return;
  }
  const report = await modelsReport(io.env, config, { all: flags.all === true });
  if (flags.json) io.stdout.json(report, 2);
  else io.stdout.write(formatModelsReport(withOneLineStrings(report)));
}
