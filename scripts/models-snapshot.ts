/**
 * Regenerates src/llm/catalog/models-snapshot.json from models.dev data, offline:
 *
 *   bun scripts/models-snapshot.ts <models.dev checkout>   # providers/{anthropic,openai,google}/models/*.toml
 *   bun scripts/models-snapshot.ts <api.json>              # a saved https://models.dev/api.json
 *
 * Options: `--out <file>` (default src/llm/catalog/models-snapshot.json), `--source <text>` and
 * `--date <YYYY-MM-DD>` to name the data's origin when it cannot be read from the checkout's git
 * history (an exported tree, or an api.json: the date then defaults to the file's modification day).
 * Only the fields the catalog uses are kept (see src/llm/catalog/models-dev.ts). Exit 2 on bad usage,
 * 1 when the input holds no usable model.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import {
  type CatalogData,
  type CompactModel,
  compactApiJson,
  compactModel,
  MODELS_DEV_PROVIDERS,
} from "../src/llm/catalog/models-dev.ts";

function usage(message: string): never {
  process.stderr.write(
    `models-snapshot: ${message}\nusage: bun scripts/models-snapshot.ts <models.dev checkout | api.json> [--out FILE] [--source TEXT] [--date YYYY-MM-DD]\n`,
  );
  process.exit(2);
}

function parseArgs(argv: string[]): { input: string; out: string; source?: string; date?: string } {
  let input: string | undefined;
  let out = resolve(import.meta.dir, "../src/llm/catalog/models-snapshot.json");
  let source: string | undefined;
  let date: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    const value = () => argv[++i] ?? usage(`${arg} needs a value`);
    if (arg === "--out") out = resolve(value());
    else if (arg === "--source") source = value();
    else if (arg === "--date") date = value();
    else if (arg.startsWith("--")) usage(`unknown option ${arg}`);
    else if (input === undefined) input = arg;
    else usage(`unexpected argument ${arg}`);
  }
  if (input === undefined) usage("missing the models.dev checkout or api.json path");
  if (date !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(date)) usage(`--date ${date}: expected YYYY-MM-DD`);
  return { input: resolve(input), out, ...(source ? { source } : {}), ...(date ? { date } : {}) };
}

/** The checkout's HEAD commit and its date, when it is a git work tree. */
function gitOrigin(dir: string): { source: string; date: string } | undefined {
  const run = spawnSync("git", ["-C", dir, "log", "-1", "--format=%H %cs"], { encoding: "utf8" });
  const [commit, date] = run.status === 0 ? run.stdout.trim().split(" ") : [];
  return commit && date ? { source: `models.dev ${commit}`, date } : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Objects merged key by key, the override winning; arrays and scalars replaced whole. */
function mergeDeep(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const current = out[key];
    out[key] = isObject(current) && isObject(value) ? mergeDeep(current, value) : value;
  }
  return out;
}

/**
 * A provider model that names `base_model = "openai/gpt-5"` inherits models/openai/gpt-5.toml, its own
 * keys winning and `base_model_omit` paths removed, as models.dev's packages/core/src/generate.ts
 * (`mergeBaseModel`) does when it builds api.json.
 */
function withBaseModel(dir: string, raw: unknown): unknown {
  if (!isObject(raw) || typeof raw.base_model !== "string") return raw;
  const { base_model: baseId, base_model_omit: omit, ...own } = raw;
  const base = Bun.TOML.parse(readFileSync(join(dir, "models", `${baseId}.toml`), "utf8")) as Record<
    string,
    unknown
  >;
  const merged = mergeDeep(base, own);
  for (const path of Array.isArray(omit) ? omit : []) {
    const parts = String(path).split(".");
    const last = parts.pop();
    let target: unknown = merged;
    for (const part of parts) target = isObject(target) ? target[part] : undefined;
    if (isObject(target) && last) delete target[last];
  }
  return merged;
}

function fromCheckout(dir: string): { models: CompactModel[]; skipped: string[] } {
  const models: CompactModel[] = [];
  const skipped: string[] = [];
  for (const [providerId, provider] of Object.entries(MODELS_DEV_PROVIDERS)) {
    const folder = join(dir, "providers", providerId, "models");
    let files: string[];
    try {
      files = readdirSync(folder).filter((f) => f.endsWith(".toml"));
    } catch {
      usage(`${folder} not found: is ${dir} a models.dev checkout?`);
    }
    for (const file of files.sort()) {
      const id = file.slice(0, -".toml".length);
      let raw: unknown;
      try {
        raw = Bun.TOML.parse(readFileSync(join(folder, file), "utf8"));
      } catch (error) {
        skipped.push(`${id}: ${(error as Error).message}`);
        continue;
      }
      const compact = compactModel(id, provider, withBaseModel(dir, raw));
      if (typeof compact === "string") skipped.push(compact);
      else models.push(compact);
    }
  }
  return { models, skipped };
}

const args = parseArgs(process.argv.slice(2));
const isDir = statSync(args.input, { throwIfNoEntry: false })?.isDirectory();
if (isDir === undefined) usage(`${args.input} does not exist`);
const result = isDir
  ? fromCheckout(args.input)
  : compactApiJson(JSON.parse(readFileSync(args.input, "utf8")) as unknown);
if (typeof result === "string") {
  process.stderr.write(`models-snapshot: ${args.input}: ${result}\n`);
  process.exit(1);
}
const origin = isDir ? gitOrigin(args.input) : undefined;
const date = args.date ?? origin?.date ?? statSync(args.input).mtime.toISOString().slice(0, 10);
const data: CatalogData = {
  source: args.source ?? origin?.source ?? `models.dev api.json (${args.input})`,
  date,
  models: result.models.sort((a, b) => a.provider.localeCompare(b.provider) || a.id.localeCompare(b.id)),
};
// One model a line: small diffs when the snapshot is regenerated.
const lines = data.models.map((m) => `    ${JSON.stringify(m)}`);
writeFileSync(
  args.out,
  `{\n  "source": ${JSON.stringify(data.source)},\n  "date": ${JSON.stringify(data.date)},\n  "models": [\n${lines.join(",\n")}\n  ]\n}\n`,
);
for (const line of result.skipped) process.stderr.write(`models-snapshot: skipped ${line}\n`);
process.stderr.write(
  `models-snapshot: ${data.models.length} models from ${data.source} (${data.date}) -> ${args.out}\n`,
);
