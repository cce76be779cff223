/**
 * Tier defaults and short aliases chosen from the catalog by rules, so they follow new releases:
 *
 * - A model belongs to a *line* by its id (`claude-sonnet-*`, `gpt-*-sol`, `gemini-*-flash`, ...).
 * - Eligible: generally available (not preview, alpha, beta or deprecated), open to every account (not
 *   Claude Mythos), tool calling, and not within 30 days of its shutdown.
 * - Newest: the highest version in the id, then the latest release date.
 * - A tier's candidates for a provider: the newest eligible model of each of its lines, in order; a tier
 *   with one line takes that line's two newest.
 * - An alias (`sonnet`, `sol`, `flash`, ...) is the newest eligible model of its line.
 *
 * Config pins (`models.<tier>` in config.yaml) still win; resolve.ts applies them.
 */
import type { ProviderKind } from "../../kernel/index.ts";
import type { CatalogEntry } from "./entry.ts";

export type Tier = "fast" | "good" | "best";

/** Lines by provider: a name and the undated ids that belong to it. */
export const LINES: Readonly<Record<ProviderKind, Readonly<Record<string, RegExp>>>> = {
  anthropic: {
    fable: /^claude-fable-\d+(-\d{1,2})?$/,
    opus: /^claude-opus-\d+(-\d{1,2})?$/,
    sonnet: /^claude-sonnet-\d+(-\d{1,2})?$/,
    haiku: /^claude-haiku-\d+(-\d{1,2})?$/,
  },
  openai: {
    astra: /^gpt-\d+(\.\d+)?-astra$/,
    sol: /^gpt-\d+(\.\d+)?-sol$/,
    terra: /^gpt-\d+(\.\d+)?-terra$/,
    luna: /^gpt-\d+(\.\d+)?-luna$/,
  },
  gemini: {
    // Gemini 4's flagships: Carbon (Google's strongest reasoning model, GA 2026-11-10) ranks above Argon
    // by its later release (overrides.ts cites Google's description).
    "gemini-pro": /^gemini-\d+(\.\d+)?-(pro|argon|carbon)$/,
    neon: /^gemini-\d+(\.\d+)?-neon$/,
    hydrogen: /^gemini-\d+(\.\d+)?-hydrogen$/,
    flash: /^gemini-\d+(\.\d+)?-flash$/,
    "flash-lite": /^gemini-\d+(\.\d+)?-flash-lite$/,
  },
};

/** Short names people type, each the newest eligible model of that line. */
export const ALIAS_LINES: Readonly<Record<string, { provider: ProviderKind; line: string }>> = {
  haiku: { provider: "anthropic", line: "haiku" },
  sonnet: { provider: "anthropic", line: "sonnet" },
  opus: { provider: "anthropic", line: "opus" },
  fable: { provider: "anthropic", line: "fable" },
  astra: { provider: "openai", line: "astra" },
  sol: { provider: "openai", line: "sol" },
  terra: { provider: "openai", line: "terra" },
  luna: { provider: "openai", line: "luna" },
  "gemini-pro": { provider: "gemini", line: "gemini-pro" },
  argon: { provider: "gemini", line: "gemini-pro" },
  neon: { provider: "gemini", line: "neon" },
  hydrogen: { provider: "gemini", line: "hydrogen" },
  flash: { provider: "gemini", line: "flash" },
  "flash-lite": { provider: "gemini", line: "flash-lite" },
};

/** Each tier's rule in one sentence, and its lines per provider (strongest first). */
export const TIER_RULES: Readonly<Record<Tier, { rule: string; lines: Record<ProviderKind, string[]> }>> = {
  best: {
    rule: "the newest generally available flagship (Fable, Astra, Gemini Pro-class: Carbon, Argon), then the newest of the line below it",
    lines: { anthropic: ["fable", "opus"], openai: ["astra", "sol"], gemini: ["gemini-pro", "neon"] },
  },
  good: {
    rule: "the newest generally available mid-size model (Sonnet, Sol, Neon), then the next line down",
    lines: { anthropic: ["sonnet"], openai: ["sol", "terra"], gemini: ["neon", "flash"] },
  },
  fast: {
    rule: "the newest generally available small model (Haiku, Luna, Flash-Lite), then the next line up",
    lines: { anthropic: ["haiku"], openai: ["luna"], gemini: ["flash-lite", "flash"] },
  },
};

const DAY = 86_400_000;

/** Why a model is not a default, or undefined when it is eligible on `now`. */
export function ineligibility(entry: CatalogEntry, now: Date): string | undefined {
  if (entry.status === "preview" || entry.status === "alpha" || entry.status === "beta") return entry.status;
  if (entry.status === "deprecated") return "deprecated";
  if (entry.restricted) return "restricted access";
  if (!entry.toolCall) return "no tool calling";
  if (entry.retires && Date.parse(`${entry.retires}T00:00:00Z`) - now.getTime() <= 30 * DAY)
    return `retires ${entry.retires}`;
  return undefined;
}

function version(id: string): number[] {
  return (id.match(/\d+/g) ?? []).map(Number);
}

/** Newest first: higher version numbers in the id, then the later release date. */
export function newestFirst(a: CatalogEntry, b: CatalogEntry): number {
  const va = version(a.id);
  const vb = version(b.id);
  for (let i = 0; i < Math.max(va.length, vb.length); i++) {
    const diff = (vb[i] ?? -1) - (va[i] ?? -1);
    if (diff !== 0) return diff;
  }
  // Dates are ISO (YYYY-MM-DD), so code-unit order is date order; localeCompare would start ICU's
  // collator, 2-3 ms of CPU on the first call of every process that resolves a tier.
  const da = a.releaseDate ?? "";
  const db = b.releaseDate ?? "";
  return da === db ? 0 : db < da ? -1 : 1;
}

/** Each line's model ids, newest first, by provider and line name (`lineIndex`). */
export type LineIndex = Readonly<Record<ProviderKind, Readonly<Record<string, readonly string[]>>>>;

/** A line's models, newest first: the catalog's entries filtered by the line's pattern, or an index of them. */
export type LineMembers = (provider: ProviderKind, line: string) => readonly CatalogEntry[];

/** The members of every line among `entries`, by the rule above (pattern, then newest first). */
export function membersOf(entries: readonly CatalogEntry[]): LineMembers {
  return (provider, line) => {
    const pattern = LINES[provider][line];
    return pattern
      ? entries.filter((e) => e.provider === provider && pattern.test(e.id)).sort(newestFirst)
      : [];
  };
}

/** Every line's member ids, newest first: what `membersOf` finds, kept so a start-up need not filter and sort. */
export function lineIndex(entries: readonly CatalogEntry[]): LineIndex {
  const members = membersOf(entries);
  const index = (provider: ProviderKind): Record<string, string[]> =>
    Object.fromEntries(
      Object.keys(LINES[provider]).map((line) => [line, members(provider, line).map((e) => e.id)]),
    );
  return { anthropic: index("anthropic"), openai: index("openai"), gemini: index("gemini") };
}

function linesOf(source: readonly CatalogEntry[] | LineMembers): LineMembers {
  return typeof source === "function" ? source : membersOf(source);
}

/** A line's models, newest first, split into eligible ones and the skipped ones with their reason. */
export function lineModels(
  source: readonly CatalogEntry[] | LineMembers,
  provider: ProviderKind,
  line: string,
  now: Date,
): { eligible: CatalogEntry[]; skipped: { entry: CatalogEntry; reason: string }[] } {
  const eligible: CatalogEntry[] = [];
  const skipped: { entry: CatalogEntry; reason: string }[] = [];
  for (const entry of linesOf(source)(provider, line)) {
    const reason = ineligibility(entry, now);
    if (reason) skipped.push({ entry, reason });
    else eligible.push(entry);
  }
  return { eligible, skipped };
}

/** One tier's choice for one provider, with the reasons. */
export interface TierChoice {
  tier: Tier;
  provider: ProviderKind;
  rule: string;
  candidates: string[];
  /** One line per candidate: "claude-sonnet-5-5: newest eligible sonnet (released ...)". */
  why: string[];
  /** Newer models of the tier's lines passed over, and why. */
  skipped: { id: string; reason: string }[];
}

function describe(entry: CatalogEntry, line: string, rank: string): string {
  const released = entry.releaseDate ? `, released ${entry.releaseDate}` : "";
  return `${entry.id}: ${rank} generally available ${line} model${released}`;
}

/** The tier's candidates for a provider by its rule, from the catalog's entries or its line index. */
export function chooseTier(
  source: readonly CatalogEntry[] | LineMembers,
  tier: Tier,
  provider: ProviderKind,
  now: Date,
): TierChoice {
  const { rule, lines } = TIER_RULES[tier];
  const choice: TierChoice = { tier, provider, rule, candidates: [], why: [], skipped: [] };
  const members = linesOf(source);
  for (const line of lines[provider]) {
    const { eligible, skipped } = lineModels(members, provider, line, now);
    const newest = eligible[0];
    // Only models newer than the chosen one were really passed over.
    for (const { entry, reason } of skipped)
      if (!newest || newestFirst(entry, newest) < 0) choice.skipped.push({ id: entry.id, reason });
    const taken = lines[provider].length === 1 ? eligible.slice(0, 2) : eligible.slice(0, 1);
    taken.forEach((entry, index) => {
      if (choice.candidates.includes(entry.id)) return;
      choice.candidates.push(entry.id);
      choice.why.push(describe(entry, line, index === 0 ? "newest" : "second-newest"));
    });
  }
  return choice;
}

/** The newest eligible model an alias names (else the newest of its line at all), or undefined. */
export function aliasTarget(
  source: readonly CatalogEntry[] | LineMembers,
  alias: string,
  now: Date,
): CatalogEntry | undefined {
  const target = ALIAS_LINES[alias.toLowerCase()];
  if (!target) return undefined;
  const members = linesOf(source);
  const { eligible } = lineModels(members, target.provider, target.line, now);
  return eligible[0] ?? members(target.provider, target.line)[0];
}
