/**
 * models.dev data (https://models.dev/api.json, built from the public repository anomalyco/models.dev,
 * one TOML file per model) turned into the compact entries our catalog keeps. One converter serves
 * scripts/models-snapshot.ts (the repository's TOML files, offline) and refreshCatalog (api.json).
 *
 * The source schema is models.dev's packages/core/src/schema.ts (read at commit f3fc692, 2026-07-02):
 * `limit {context, input?, output}`, `cost {input, output, cache_read?, cache_write?, tiers?: [{tier:
 * {type: "context", size}, input, output, cache_read?, cache_write?}], context_over_200k?}`,
 * `reasoning`, `reasoning_options: [{type: "effort", values}|{type: "toggle"}|{type: "budget_tokens"}]`,
 * `tool_call`, `temperature?`, `modalities {input, output}`, `release_date`, `last_updated`,
 * `knowledge?`, `status?: "alpha" | "beta" | "deprecated"`. Unknown fields are ignored, so a newer
 * api.json still validates; a model missing the fields we need is skipped, never guessed.
 */
import { z } from "zod";
import { type ProviderKind, REASONING_EFFORTS, type ReasoningEffort } from "../../kernel/index.ts";

/** models.dev provider ids we read, and the provider each becomes. */
export const MODELS_DEV_PROVIDERS: Readonly<Record<string, ProviderKind>> = {
  anthropic: "anthropic",
  openai: "openai",
  google: "gemini",
};

/** Per-million-token USD prices of one band. */
export interface CompactCost {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
}

/** One model as the catalog keeps it (only the fields we use). */
export interface CompactModel {
  id: string;
  provider: ProviderKind;
  name: string;
  family?: string;
  context: number;
  /** Maximum input tokens, when lower than the context window. */
  input?: number;
  output: number;
  cost?: CompactCost & { tiers?: (CompactCost & { above: number })[] };
  reasoning: boolean;
  /** Accepted reasoning efforts (models.dev `reasoning_options` of type effort), weakest first. */
  efforts?: ReasoningEffort[];
  toolCall: boolean;
  temperature?: boolean;
  modalities?: { input: string[]; output: string[] };
  releaseDate?: string;
  lastUpdated?: string;
  knowledge?: string;
  status?: "alpha" | "beta" | "deprecated";
}

const Price = z.object({
  input: z.number().nonnegative(),
  output: z.number().nonnegative(),
  cache_read: z.number().nonnegative().optional(),
  cache_write: z.number().nonnegative().optional(),
});

const Tier = Price.extend({ tier: z.object({ size: z.number().int().nonnegative() }) });

/** The part of a models.dev model we read (loose: extra fields pass). */
const SourceModel = z.object({
  id: z.string().min(1).optional(),
  name: z.string().min(1),
  family: z.string().optional(),
  reasoning: z.boolean().optional(),
  reasoning_options: z
    .array(z.object({ type: z.string(), values: z.array(z.union([z.string(), z.null()])).optional() }))
    .optional(),
  tool_call: z.boolean().optional(),
  temperature: z.boolean().optional(),
  knowledge: z.string().optional(),
  release_date: z.string().optional(),
  last_updated: z.string().optional(),
  modalities: z.object({ input: z.array(z.string()), output: z.array(z.string()) }).optional(),
  limit: z.object({
    context: z.number().int().positive(),
    input: z.number().int().positive().optional(),
    output: z.number().int().positive(),
  }),
  cost: Price.extend({
    tiers: z.array(Tier).optional(),
    context_over_200k: Price.optional(),
  }).optional(),
  status: z.enum(["alpha", "beta", "deprecated"]).optional(),
});

/** api.json: `{<provider id>: {id, models: {<model id>: model}}}`. */
const ApiJson = z.record(z.string(), z.object({ models: z.record(z.string(), z.unknown()) }).passthrough());

function price(source: z.infer<typeof Price>): CompactCost {
  const out: CompactCost = { input: source.input, output: source.output };
  if (source.cache_read !== undefined) out.cacheRead = source.cache_read;
  if (source.cache_write !== undefined) out.cacheWrite = source.cache_write;
  return out;
}

function efforts(options: z.infer<typeof SourceModel>["reasoning_options"]): ReasoningEffort[] | undefined {
  const values = options?.find((o) => o.type === "effort")?.values;
  if (!values) return undefined;
  const known = values.filter((v): v is ReasoningEffort => REASONING_EFFORTS.includes(v as ReasoningEffort));
  return known.sort((a, b) => REASONING_EFFORTS.indexOf(a) - REASONING_EFFORTS.indexOf(b));
}

/** One models.dev model as a compact entry, or an error text naming what is wrong with it. */
export function compactModel(id: string, provider: ProviderKind, raw: unknown): CompactModel | string {
  const parsed = SourceModel.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return `${id}: ${issue ? `${issue.path.join(".") || "model"}: ${issue.message}` : "invalid"}`;
  }
  const m = parsed.data;
  const out: CompactModel = {
    id,
    provider,
    name: m.name,
    context: m.limit.context,
    output: m.limit.output,
    reasoning: m.reasoning === true,
    toolCall: m.tool_call === true,
  };
  if (m.family) out.family = m.family;
  if (m.limit.input !== undefined && m.limit.input < m.limit.context) out.input = m.limit.input;
  if (m.cost) {
    const cost: NonNullable<CompactModel["cost"]> = price(m.cost);
    const tiers = (m.cost.tiers ?? []).map((t) => ({ above: t.tier.size, ...price(t) }));
    // The older single long-context band is the 200K tier.
    if (tiers.length === 0 && m.cost.context_over_200k)
      tiers.push({ above: 200_000, ...price(m.cost.context_over_200k) });
    if (tiers.length > 0) cost.tiers = tiers.sort((a, b) => a.above - b.above);
    out.cost = cost;
  }
  const accepted = efforts(m.reasoning_options);
  if (accepted && accepted.length > 0) out.efforts = accepted;
  if (m.temperature !== undefined) out.temperature = m.temperature;
  if (m.modalities) out.modalities = m.modalities;
  if (m.release_date) out.releaseDate = m.release_date;
  if (m.last_updated) out.lastUpdated = m.last_updated;
  if (m.knowledge) out.knowledge = m.knowledge;
  if (m.status) out.status = m.status;
  return out;
}

/** The compact models of an api.json document (our three providers only), and the skipped ones. */
export function compactApiJson(raw: unknown): { models: CompactModel[]; skipped: string[] } | string {
  const parsed = ApiJson.safeParse(raw);
  if (!parsed.success) return "not a models.dev api.json (expected {provider: {models: {...}}})";
  const models: CompactModel[] = [];
  const skipped: string[] = [];
  for (const [providerId, provider] of Object.entries(MODELS_DEV_PROVIDERS)) {
    const entry = parsed.data[providerId];
    if (!entry) continue;
    for (const [id, model] of Object.entries(entry.models)) {
      const compact = compactModel(id, provider, model);
      if (typeof compact === "string") skipped.push(compact);
      else models.push(compact);
    }
  }
  if (models.length === 0) return "api.json lists no anthropic, openai or google model";
  return { models, skipped };
}

/** The catalog's data file: models.dev models plus where and when they came from. */
export interface CatalogData {
  /** Where the data came from: "models.dev <commit>" or the api.json URL. */
  source: string;
  /** The data's date (YYYY-MM-DD): the commit date, or the day it was fetched. */
  date: string;
  models: CompactModel[];
}
