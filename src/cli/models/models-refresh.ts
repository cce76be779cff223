/**
 * `agent models --refresh`: downloads the models.dev catalog (AGENT_MODELS_URL, else
 * https://models.dev/api.json) into $XDG_CACHE_HOME/agent/models.json through refreshCatalog().
 *
 * Prints `refreshed N models from <url> → <path>` on stdout. A failed download or a bad answer leaves the
 * previous cache and the snapshot in place, prints refreshCatalog's one-line note on stderr and exits 4
 * (a provider-like failure: the catalog's server, not the user's input). Prices the refresh did not apply
 * over our cited ones (src/llm/catalog/price-guard.ts) are named on stderr, one line each.
 */
import { readFileSync } from "node:fs";
import { ExitCode } from "../../kernel/index.ts";
import { keptCitedPrices } from "../../llm/catalog/merge.ts";
import type { CatalogData, CompactModel } from "../../llm/catalog/models-dev.ts";
import { DEFAULT_MODELS_URL, refreshCatalog } from "../../llm/catalog/refresh.ts";
import { CliExit } from "../shared/command-module.ts";
import type { CommandIo } from "../shared/io/command-io.ts";
import { safeLine } from "../shared/io/terminal-out.ts";

export async function refreshModels(io: CommandIo): Promise<void> {
  const { env } = io;
  const url = env.AGENT_MODELS_URL && env.AGENT_MODELS_URL !== "" ? env.AGENT_MODELS_URL : DEFAULT_MODELS_URL;
  const result = await refreshCatalog(url, { env });
  if (!result.ok) {
    io.stderr.write(safeLine`agent: ${result.note}\n`);
    throw new CliExit(ExitCode.provider);
  }
  io.stdout.write(safeLine`refreshed ${result.models} models from ${result.source} → ${result.path}\n`);
  for (const line of keptPrices(result.path))
    io.stderr.write(safeLine`agent: note: cited price kept (docs/models.md "Prices and budgets"): ${line}\n`);
}

/** The cited prices the written refresh did not replace (the merge and overrides load only here). */
function keptPrices(path: string): string[] {
  let models: CompactModel[];
  try {
    models = (JSON.parse(readFileSync(path, "utf8")) as CatalogData).models;
  } catch {
    return [];
  }
  return keptCitedPrices(models);
}
