/**
 * The shipped snapshot merged with our overrides, computed once at bundle time: store.ts imports
 * `mergedSnapshot` as a Bun macro (https://bun.com/docs/bundler/macros: the call runs during bundling,
 * or in the runtime's transpiler when run from source, and its JSON-serializable result is inlined).
 * A process without a newer cached refresh then builds its catalog from two arrays instead of merging
 * the whole snapshot on every start. Only the store should import this, and only as a macro.
 */
import type { CatalogEntry } from "./entry.ts";
import { mergeCatalog } from "./merge.ts";
import type { CatalogData } from "./models-dev.ts";
import snapshot from "./models-snapshot.json" with { type: "json" };

/** A Catalog's maps as entry arrays (a macro's result must be plain JSON). */
export interface MergedSnapshot {
  entries: [string, CatalogEntry][];
  aliases: [string, string][];
  source: string;
  date: string;
}

/** mergeCatalog of the snapshot, as arrays. */
export function mergedSnapshot(): MergedSnapshot {
  const merged = mergeCatalog(snapshot as CatalogData);
  return {
    entries: [...merged.entries],
    aliases: [...merged.aliases],
    source: merged.source,
    date: merged.date,
  };
}
