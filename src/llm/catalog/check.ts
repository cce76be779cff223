/**
 * For `agent models --check`: the catalog models a provider no longer lists. Only models the catalog
 * treats as live are asked about (deprecated, retired and restricted ones are expected to be missing),
 * and a model counts as listed under any of its names (aliases, dated snapshots).
 */
import type { ProviderKind } from "../../kernel/index.ts";
import type { CatalogEntry } from "./entry.ts";

export interface UnlistedModel {
  id: string;
  /** Why it matters: a tier default or alias choice misses first. */
  note: string;
}

/** Catalog models of `provider` that `listed` (the provider's own model list) does not contain. */
export function unlistedCatalogModels(
  entries: readonly CatalogEntry[],
  provider: ProviderKind,
  listed: readonly string[],
  now: Date,
): UnlistedModel[] {
  const live = new Set(listed);
  const out: UnlistedModel[] = [];
  for (const entry of entries) {
    if (entry.provider !== provider || entry.status === "deprecated" || entry.restricted) continue;
    if (entry.retires && Date.parse(`${entry.retires}T00:00:00Z`) <= now.getTime()) continue;
    const names = [entry.id, ...(entry.aliases ?? [])];
    if (names.some((name) => live.has(name))) continue;
    out.push({
      id: entry.id,
      note: `in the catalog (${entry.origin}) but not listed by ${provider}; a refresh or an override may be out of date`,
    });
  }
  return out.sort((a, b) => a.id.localeCompare(b.id));
}
