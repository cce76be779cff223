/**
 * `refreshCatalog`: downloads models.dev's api.json (or `AGENT_MODELS_URL`), keeps our three
 * providers' models in the compact form, and writes them atomically to the cache the catalog reads
 * ($XDG_CACHE_HOME/agent/models.json). Run only by the user's command (`agent models --refresh`), never
 * on the hot path. A failure leaves the previous cache and the snapshot in place and says why in one
 * line; it never throws.
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { readCappedText } from "../../kernel/net/capped-body.ts";
import { type CatalogData, compactApiJson } from "./models-dev.ts";
import { catalogCachePath, resetCatalog } from "./store.ts";

export const DEFAULT_MODELS_URL = "https://models.dev/api.json";

export type RefreshResult =
  | { ok: true; path: string; models: number; skipped: string[]; source: string; date: string }
  | { ok: false; note: string };

export interface RefreshOptions {
  env?: Record<string, string | undefined>;
  /** Injected for tests of the network layer; defaults to the global fetch. */
  fetch?: typeof fetch;
  /** Abort after this many milliseconds (default 30 s). */
  timeoutMs?: number;
  /** The day recorded as the data's date (default today, UTC). */
  now?: Date;
  /** False: leave this process's catalog as it is (a background refresh serves the next run). Default true. */
  reset?: boolean;
}

/** api.json is a few megabytes; anything far past that is not models.dev. */
const MAX_BYTES = 64 * 1024 * 1024;

async function download(url: string, options: RefreshOptions): Promise<unknown> {
  const response = await (options.fetch ?? fetch)(url, {
    signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
    headers: { accept: "application/json" },
  });
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw new Error(`HTTP ${response.status} from ${url}`);
  }
  // Streamed and stopped at the cap: a body that never ends costs MAX_BYTES, not all memory.
  const text = await readCappedText(response, MAX_BYTES, `the catalog at ${url}`);
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`${url} did not answer JSON`);
  }
}

/** Writes `data` to `path` through a temporary file and a rename, so a reader never sees half a file. */
function writeAtomically(path: string, data: CatalogData): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, `${JSON.stringify(data)}\n`, { mode: 0o644 });
    renameSync(temporary, path);
  } finally {
    rmSync(temporary, { force: true });
  }
}

/** Downloads, validates and caches the catalog; on any failure returns a one-line note instead. */
export async function refreshCatalog(
  url: string = process.env.AGENT_MODELS_URL ?? DEFAULT_MODELS_URL,
  options: RefreshOptions = {},
): Promise<RefreshResult> {
  const path = catalogCachePath(options.env ?? process.env);
  let raw: unknown;
  try {
    raw = await download(url, options);
  } catch (error) {
    return {
      ok: false,
      note: `model catalog not refreshed (${(error as Error).message}); using the built-in snapshot`,
    };
  }
  const compact = compactApiJson(raw);
  if (typeof compact === "string")
    return {
      ok: false,
      note: `model catalog not refreshed (${url}: ${compact}); using the built-in snapshot`,
    };
  const data: CatalogData = {
    source: url,
    date: (options.now ?? new Date()).toISOString().slice(0, 10),
    models: compact.models,
  };
  try {
    writeAtomically(path, data);
  } catch (error) {
    return {
      ok: false,
      note: `model catalog not refreshed (cannot write ${path}: ${(error as Error).message})`,
    };
  }
  if (options.reset !== false) resetCatalog();
  return {
    ok: true,
    path,
    models: data.models.length,
    skipped: compact.skipped,
    source: url,
    date: data.date,
  };
}
