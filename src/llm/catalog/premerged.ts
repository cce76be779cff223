/**
 * The shipped snapshot merged with our overrides ahead of time: `catalog-merged.json`, written by
 * `bun scripts/catalog-merged.ts` and committed beside the snapshot. A start without a newer cached
 * refresh reads it instead of merging: the merge is about 5 ms of a one-shot's start-up (bench/startup.ts),
 * the same work on the same inputs every time. test/llm/catalog/catalog.test.ts fails when the file no longer
 * equals `mergeCatalog(snapshot)` (an override or the snapshot changed without the script being run).
 * A plain JSON file, not a Bun macro: Bun applies no macro under a runtime plugin or inside node_modules.
 */
import type { CatalogEntry } from "./entry.ts";
import type { Catalog } from "./merge.ts";
import { type LineIndex, lineIndex } from "./tiers.ts";

/** The JSON form of a Catalog (Maps as arrays). */
export interface PremergedCatalog {
  source: string;
  date: string;
  entries: CatalogEntry[];
  aliases: [alias: string, id: string][];
  /** Each tier line's ids, newest first (tiers.ts `lineIndex`), so resolving a tier filters and sorts nothing. */
  lines: LineIndex;
}

export function toPremerged(catalog: Catalog): PremergedCatalog {
  return {
    source: catalog.source,
    date: catalog.date,
    entries: [...catalog.entries.values()],
    aliases: [...catalog.aliases],
    lines: lineIndex([...catalog.entries.values()]),
  };
}

export function fromPremerged(premerged: PremergedCatalog): Catalog {
  return {
    source: premerged.source,
    date: premerged.date,
    entries: new Map(premerged.entries.map((entry) => [entry.id, entry])),
    aliases: new Map(premerged.aliases),
  };
}
