/**
 * `models.refresh: auto` (config.yaml): when the cached model catalog ($XDG_CACHE_HOME/agent/models.json)
 * is missing or over a day old, a run starts refreshCatalog() in the background at setup, without awaiting
 * it. Off unless the user's config says auto: no network without the user's config or command.
 *
 * Semantics: the running process keeps the catalog it has (the refresh does not reload it; the next run
 * reads the new cache). At the end of the run `settle()` waits for the refresh at most SETTLE_MS (2 s), so
 * a refresh that is nearly done lands; one still running then is abandoned (its write is atomic, so no
 * half file is left). A failed refresh is one warning line on stderr; it never changes the exit code.
 */
import { statSync } from "node:fs";
import { catalogCachePath } from "../../llm/catalog/store.ts";
import type { AgentConfig } from "./agent-config.ts";

const DAY_MS = 86_400_000;
export const SETTLE_MS = 2_000;

export interface AutoRefresh {
  /** Waits for the background refresh at most SETTLE_MS; `warn` gets its failure note, if it settled. */
  settle(warn: (line: string) => void): Promise<void>;
}

const NOTHING: AutoRefresh = { settle: async () => {} };

/** True when the cache file is missing or last written more than a day before `now`. */
export function cacheIsStale(env: Record<string, string | undefined>, now: number = Date.now()): boolean {
  try {
    return now - statSync(catalogCachePath(env)).mtimeMs > DAY_MS;
  } catch {
    return true;
  }
}

/** Starts the background refresh when config asks for it and the cache is stale; never awaits it. */
export function startAutoRefresh(config: AgentConfig, env: Record<string, string | undefined>): AutoRefresh {
  if (config.modelsRefresh !== "auto" || !cacheIsStale(env)) return NOTHING;
  const running = import("../../llm/catalog/refresh.ts")
    .then(({ refreshCatalog, DEFAULT_MODELS_URL }) =>
      refreshCatalog(env.AGENT_MODELS_URL || DEFAULT_MODELS_URL, { env, reset: false }),
    )
    .catch((error: unknown) => ({
      ok: false as const,
      note: `model catalog not refreshed (${String(error)})`,
    }));
  return {
    async settle(warn) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const bound = new Promise<"timeout">((resolve) => {
        timer = setTimeout(() => resolve("timeout"), SETTLE_MS);
      });
      const result = await Promise.race([running, bound]);
      clearTimeout(timer);
      if (result !== "timeout" && !result.ok) warn(result.note);
    },
  };
}
