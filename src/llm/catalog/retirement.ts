/**
 * Retirement notices from the catalog's dates: a model within 30 days of its shutdown, or past it, gets
 * one line naming its replacement (the provider's recommendation where the override records one, else
 * the newest generally available model of its line).
 */
import type { CatalogEntry } from "./entry.ts";
import { aliasTarget, LINES, type LineMembers } from "./tiers.ts";

const DAY = 86_400_000;

/** The provider's recommended replacement, else the newest generally available model of its line. */
export function replacementOf(
  entry: CatalogEntry,
  entries: readonly CatalogEntry[] | LineMembers,
  now: Date,
): string | undefined {
  if (entry.replacement) return entry.replacement;
  const line = Object.entries(LINES[entry.provider]).find(([, pattern]) => pattern.test(entry.id))?.[0];
  const newest = line ? aliasTarget(entries, line, now) : undefined;
  return newest && newest.id !== entry.id ? newest.id : undefined;
}

/** The one-line notice for `entry` on `now`, or undefined when it is not retiring soon. */
export function retirementNotice(
  id: string,
  entry: CatalogEntry,
  entries: readonly CatalogEntry[] | LineMembers,
  now: Date,
): string | undefined {
  // The replacement is looked up only for a notice (a model not retiring needs none).
  const use = (): string => {
    const replacement = replacementOf(entry, entries, now);
    return replacement ? `; use ${replacement} instead` : "";
  };
  if (entry.retires) {
    const days = Math.ceil((Date.parse(`${entry.retires}T00:00:00Z`) - now.getTime()) / DAY);
    if (days <= 0) return `${id} was shut down on ${entry.retires}${use()}`;
    if (days <= 30)
      return `${id} shuts down on ${entry.retires} (in ${days} day${days === 1 ? "" : "s"})${use()}`;
    return undefined;
  }
  return entry.status === "deprecated" ? `${id} is deprecated by its provider${use()}` : undefined;
}
