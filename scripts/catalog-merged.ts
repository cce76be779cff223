/**
 * Writes src/llm/catalog/catalog-merged.json: the shipped models.dev snapshot merged with our overrides
 * (src/llm/catalog/premerged.ts says why). Run it after changing overrides.ts or the snapshot:
 *
 *   bun scripts/catalog-merged.ts
 *
 * test/llm/catalog/catalog.test.ts fails while the committed file is out of date.
 */
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { mergeCatalog } from "../src/llm/catalog/merge.ts";
import type { CatalogData } from "../src/llm/catalog/models-dev.ts";
import { toPremerged } from "../src/llm/catalog/premerged.ts";
import { installedSdkDeprecations } from "../src/llm/catalog/sdk-deprecations.ts";

const snapshot = require("../src/llm/catalog/models-snapshot.json") as CatalogData;
const out = resolve(import.meta.dir, "../src/llm/catalog/catalog-merged.json");
const premerged = toPremerged(mergeCatalog(snapshot));
writeFileSync(out, `${JSON.stringify(premerged, null, 2)}\n`);
// The Anthropic SDK's own retirement list, shipped with the program (sdk-deprecations.ts says why).
const deprecations = resolve(import.meta.dir, "../src/llm/catalog/sdk-deprecations.json");
const models = Object.fromEntries([...installedSdkDeprecations()].sort(([a], [b]) => a.localeCompare(b)));
writeFileSync(
  deprecations,
  `${JSON.stringify({ source: "@anthropic-ai/sdk internal/data/deprecated-models.js", models }, null, 2)}\n`,
);
// In the repository's JSON style, so `bun run check` passes on the written file.
Bun.spawnSync([process.execPath, "x", "biome", "format", "--write", out, deprecations], { stdout: "ignore" });
process.stdout.write(
  `wrote ${premerged.entries.length} models and ${premerged.aliases.length} aliases to ${out}\n`,
);
