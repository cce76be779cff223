/**
 * `agent models`: each tier's candidates per provider as the catalog's rules choose them (explainTiers()),
 * with the reason for each, the newer models passed over, and which tiers config pins instead.
 */
import type { ProviderKind } from "../../kernel/index.ts";
import type { TierChoice } from "../../llm/resolve.ts";

export interface TierExplanation {
  tier: TierChoice["tier"];
  provider: ProviderKind;
  rule: string;
  candidates: string[];
  why: string[];
  skipped: { id: string; reason: string }[];
  /** True when `models.<tier>` in config replaces these candidates. */
  pinned: boolean;
}

/** The choices for `providers` (the keyed ones, or all when none has a key), marked where config pins the tier. */
export function tierExplanations(
  choices: readonly TierChoice[],
  providers: readonly ProviderKind[],
  pinnedTiers: ReadonlySet<string>,
): TierExplanation[] {
  return choices
    .filter((c) => providers.includes(c.provider))
    .map((c) => ({
      tier: c.tier,
      provider: c.provider,
      rule: c.rule,
      candidates: c.candidates,
      why: c.why,
      skipped: c.skipped,
      pinned: pinnedTiers.has(c.tier),
    }));
}

/** Text lines: one block per tier (its rule once), one line per candidate with its why. */
export function formatTierExplanations(
  explanations: readonly TierExplanation[],
  allProviders: boolean,
): string[] {
  const lines = [
    `Tier rules (chosen from the catalog${allProviders ? "; no key set, so every provider is shown" : " for providers with a key"}):`,
  ];
  let tier: string | undefined;
  for (const e of explanations) {
    if (e.tier !== tier) {
      tier = e.tier;
      lines.push(
        `  ${e.tier}: ${e.rule}${e.pinned ? ` [pinned by config: models.${e.tier} is used instead]` : ""}`,
      );
    }
    if (e.why.length === 0) lines.push(`    ${e.provider.padEnd(9)} no eligible model in the catalog`);
    e.why.forEach((why, index) => {
      lines.push(`    ${(index === 0 ? e.provider : "").padEnd(9)} ${why}`);
    });
    if (e.skipped.length > 0)
      lines.push(`    ${"".padEnd(9)} skipped: ${e.skipped.map((s) => `${s.id} (${s.reason})`).join(", ")}`);
  }
  return lines;
}
