import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { isMap, LineCounter, parseDocument } from "yaml";
import { MAX_ALIAS_COUNT, readConfigFileResult, yamlAliasMessage } from "../../kernel/files/config-file.ts";
import { configDir } from "../../kernel/files/paths.ts";
import { AppError } from "../../kernel/index.ts";
import { BOOTSTRAP_TEXTS, EMBEDDED_BOOTSTRAP_DIR } from "./bootstrap-specs.ts";
import {
  type AgentSpec,
  agentSpecSchema,
  isPrimitiveCapability,
  type LoadedSpec,
  type SpecScope,
} from "./spec.ts";
import {
  ALL_AGENTS,
  capabilityErrors,
  expandAllAgents,
  type ModelCheck,
  modelError,
  type SpecError,
  type SpecShape,
} from "./spec-checks.ts";
import { capabilityNodeLines, issueErrors, locate, locateExact } from "./spec-yaml.ts";

/**
 * Finds, parses and validates agent spec files. Every error names the file, the line and the field,
 * and says what was expected; nothing invalid is silently dropped (a bad capability is an error).
 */

export type { SpecError } from "./spec-checks.ts";

/** A directory searched for `*.yaml` / `*.yml` specs. */
export interface SpecSource {
  dir: string;
  scope: SpecScope;
  /** Spec texts by file name, used when `dir` does not exist (bootstrap specs in a compiled binary). */
  embedded?: Readonly<Record<string, string>>;
  /** A directory every spec file's real path must lie inside (the workspace, for project specs). */
  within?: string;
}

export interface SpecLoadResult {
  /** Valid specs by name; a nearer spec overrides a farther one. */
  specs: Map<string, LoadedSpec>;
  /** Every problem found, in search order; empty when all files are valid. */
  errors: SpecError[];
  /** Every spec file read, nearest first. */
  files: string[];
  /** Valid specs hidden by a nearer spec of the same name, nearest first. */
  shadowed: ShadowedSpec[];
  /** Agent name -> capabilities of the nearest file of that name, valid or not (which agents a run reaches). */
  graph: Map<string, string[]>;
}

/** A valid spec that a nearer one of the same name overrides. */
export interface ShadowedSpec {
  name: string;
  file: string;
  scope: SpecScope;
}

/**
 * The repo's built-in specs, located relative to this module through its URL (`import.meta.dir` is
 * Bun's own): src/agents/spec/ from source, and the same three folders up from the library's Node
 * bundle, which scripts/package/build-library.ts writes three folders deep for that reason.
 */
export const BOOTSTRAP_DIR = fileURLToPath(new URL("../../../bootstrap", import.meta.url));

/** Search path, nearest first: the workspace's `.agent/agents`, the user's config, then bootstrap. */
export function specSearchPath(
  workspaceRoot: string,
  env: Record<string, string | undefined> = process.env,
): SpecSource[] {
  return [
    { dir: path.join(workspaceRoot, ".agent", "agents"), scope: "project", within: workspaceRoot },
    { dir: path.join(configDir(env), "agents"), scope: "user" },
    { dir: BOOTSTRAP_DIR, scope: "bootstrap", embedded: BOOTSTRAP_TEXTS },
  ];
}

/** Errors by file, then line: the order a person reads the files in (the checks find them in another). */
export function inFileOrder(errors: readonly SpecError[]): SpecError[] {
  return [...errors].sort((a, b) => (a.file === b.file ? a.line - b.line : a.file < b.file ? -1 : 1));
}

/** Formats an error as `FILE:LINE: FIELD: message`. */
export function formatSpecError(error: SpecError): string {
  return `${error.file}:${error.line}: ${error.field ? `${error.field}: ` : ""}${error.message}`;
}

/**
 * Every error, one `FILE:LINE: FIELD: message` line each in file order (by file, then line), as an
 * AppError of kind "spec" (exit code 3) whose `lines` the CLI prints one per line.
 */
export function specAppError(errors: SpecError[]): AppError {
  const ordered = inFileOrder(errors);
  const first = ordered[0];
  const lines = ordered.map(formatSpecError);
  const text = lines.length > 0 ? lines.join("\n") : "invalid agent spec";
  return new AppError("spec", text, {
    file: first?.file,
    line: first?.line,
    field: first?.field,
    ...(lines.length > 1 ? { lines } : {}),
  });
}

/** The result of parsing one file: the spec when valid, and the line of each capability for later checks. */
export interface ParsedSpecFile {
  spec?: AgentSpec;
  errors: SpecError[];
  capabilityLines: number[];
  /** The agent the file defines: its `name`, else the file's base name. */
  name: string;
  /** What could be read of an invalid spec, so its capabilities and model are checked in the same pass. */
  raw?: { capabilities: string[]; canSpawn: boolean; model?: string };
  /** Line of the `model` field (1 when absent). */
  modelLine: number;
}

/** Parses and validates one spec file's text (capabilities are checked later, against all known agents). */
export function parseSpecText(text: string, file: string): ParsedSpecFile {
  const parsed = parseSpecDocument(text, file);
  const agent = parsed.name;
  return { ...parsed, errors: parsed.errors.map((e) => ({ ...e, agent: e.agent ?? agent })) };
}

function parseSpecDocument(text: string, file: string): ParsedSpecFile {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  const lineOf = (offset: number | undefined): number =>
    offset === undefined ? 1 : lineCounter.linePos(offset).line;
  const base = path.basename(file).replace(/\.ya?ml$/, "");
  if (doc.errors.length > 0) {
    return {
      errors: doc.errors.map((e) => ({
        file,
        line: lineOf(e.pos[0]),
        message: `invalid YAML: ${e.message}`,
      })),
      capabilityLines: [],
      name: base,
      modelLine: 1,
    };
  }
  const root = doc.contents;
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    return { errors: [aliasError(file, error)], capabilityLines: [], name: base, modelLine: 1 };
  }
  if (!isMap(root)) {
    return {
      errors: [
        { file, line: lineOf(root?.range?.[0]), message: "expected a mapping with name, description, ..." },
      ],
      capabilityLines: [],
      name: base,
      modelLine: 1,
    };
  }
  const data = value;
  const parsed = agentSpecSchema.safeParse(data);
  const capabilityLines = capabilityNodeLines(root, lineOf);
  const raw = rawShape(data);
  const name = raw.name ?? base;
  const modelLine = lineOf(locateExact(root, ["model"])?.range?.[0] ?? root.range?.[0]);
  if (!parsed.success) {
    const errors = parsed.error.issues.flatMap((issue) => issueErrors(issue, root, file, lineOf));
    return { errors, capabilityLines, name, raw, modelLine };
  }
  const spec = parsed.data as AgentSpec;
  const errors: SpecError[] = [];
  if (isPrimitiveCapability(spec.name)) {
    errors.push({
      file,
      line: lineOf(locate(root, ["name"]).range?.[0]),
      field: "name",
      message: `"${spec.name}" is a primitive's name; expected a different agent name`,
    });
  }
  return errors.length > 0
    ? { errors, capabilityLines, name, raw, modelLine }
    : { spec, errors, capabilityLines, name, modelLine };
}

/** What can be read of a spec's name, capabilities, can_spawn and model without the schema passing. */
function rawShape(data: unknown): {
  name?: string;
  capabilities: string[];
  canSpawn: boolean;
  model?: string;
} {
  const record = (data ?? {}) as Record<string, unknown>;
  const caps = Array.isArray(record.capabilities) ? record.capabilities : [];
  const constraints = (record.constraints ?? {}) as Record<string, unknown>;
  return {
    ...(typeof record.name === "string" ? { name: record.name } : {}),
    capabilities: caps.map((c) => (typeof c === "string" ? c : "")),
    canSpawn: constraints.can_spawn !== false,
    ...(typeof record.model === "string" ? { model: record.model } : {}),
  };
}

/** A spec error for a document whose aliases could not be resolved (an alias bomb, an alias loop). */
function aliasError(file: string, error: unknown): SpecError {
  return { file, line: 1, message: yamlAliasMessage(error) };
}

interface FileOutcome extends ParsedSpecFile {
  file: string;
  scope: SpecScope;
}

/** Every `*.yaml` / `*.yml` entry that is not a directory: FIFOs, devices and symlinks too, so the reader refuses them loudly. */
async function specFiles(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries
      .filter((e) => !e.isDirectory() && /\.ya?ml$/.test(e.name))
      .map((e) => path.join(dir, e.name))
      .sort();
  } catch {
    return [];
  }
}

/**
 * Loads every spec along the search path (nearest first). A nearer spec overrides a farther one by
 * name; a capability naming neither a primitive nor a known agent is an error at its line.
 */
export async function loadSpecs(options: {
  workspaceRoot: string;
  env?: Record<string, string | undefined>;
  /** Replaces the default search path (tests, `--agents-dir`). */
  sources?: SpecSource[];
  /** Checks each spec's model name (src/agents/spec/spec-checks.ts modelNameCheck); unchecked when absent. */
  checkModel?: ModelCheck;
  /** The MCP servers config declares: an `mcp:NAME` capability must name one of them. */
  mcpServers?: readonly string[];
}): Promise<SpecLoadResult> {
  const sources = options.sources ?? specSearchPath(options.workspaceRoot, options.env);
  const outcomes: FileOutcome[] = [];
  for (const source of sources) {
    if (source.embedded && !existsSync(source.dir)) {
      for (const [name, text] of Object.entries(source.embedded).sort(([a], [b]) => a.localeCompare(b))) {
        const file = path.join(EMBEDDED_BOOTSTRAP_DIR, name);
        outcomes.push({ ...parseSpecText(text, file), file, scope: source.scope });
      }
      continue;
    }
    for (const file of await specFiles(source.dir)) {
      const read = await readConfigFileResult(file, source.within ? { within: source.within } : {});
      if ("missing" in read) continue;
      if ("refused" in read) {
        outcomes.push({
          errors: [
            { file, line: 1, message: read.refused, agent: path.basename(file).replace(/\.ya?ml$/, "") },
          ],
          capabilityLines: [],
          name: path.basename(file).replace(/\.ya?ml$/, ""),
          modelLine: 1,
          file,
          scope: source.scope,
        });
        continue;
      }
      outcomes.push({ ...parseSpecText(read.text, file), file, scope: source.scope });
    }
  }
  return resolveSpecs(outcomes, options.checkModel, options.mcpServers);
}

/**
 * Merges parsed files (nearest first) into the final set and checks, in one pass, every spec's model and
 * capabilities (an invalid spec's too, as far as they can be read); `agents:*` expands to every other
 * valid agent.
 */
function resolveSpecs(
  outcomes: FileOutcome[],
  checkModel?: ModelCheck,
  mcpServers: readonly string[] = [],
): SpecLoadResult {
  const specs = new Map<string, LoadedSpec>();
  const errors: SpecError[] = [];
  const lines = new Map<string, number[]>();
  const seenInScope = new Map<string, string>();
  const shadowed: ShadowedSpec[] = [];
  const graph = new Map<string, string[]>();
  const allNames = new Set(outcomes.map((o) => o.name));
  for (const outcome of outcomes) {
    errors.push(...outcome.errors);
    const spec = outcome.spec;
    if (!graph.has(outcome.name))
      graph.set(outcome.name, spec?.capabilities ?? outcome.raw?.capabilities ?? []);
    if (!spec) {
      if (outcome.raw) errors.push(...rawErrors(outcome, allNames, checkModel, mcpServers));
      continue;
    }
    const scopedKey = `${outcome.scope}:${spec.name}`;
    const earlier = seenInScope.get(scopedKey);
    if (earlier !== undefined) {
      errors.push({
        file: outcome.file,
        line: 1,
        field: "name",
        agent: spec.name,
        message: `agent "${spec.name}" is already defined in ${earlier}; expected a unique name`,
      });
      continue;
    }
    seenInScope.set(scopedKey, outcome.file);
    if (specs.has(spec.name)) {
      shadowed.push({ name: spec.name, file: outcome.file, scope: outcome.scope }); // a nearer spec won
      continue;
    }
    const wrongModel = modelError({ ...spec, file: outcome.file, line: outcome.modelLine }, checkModel);
    if (wrongModel.length > 0) {
      errors.push(...wrongModel);
      continue;
    }
    specs.set(spec.name, { ...spec, source: { file: outcome.file, scope: outcome.scope } });
    lines.set(spec.name, outcome.capabilityLines);
  }
  // Repeat until stable: dropping an invalid spec can invalidate a spec that delegates to it.
  for (let changed = true; changed; ) {
    changed = false;
    for (const [name, spec] of [...specs]) {
      const problems = capabilityErrors(
        shapeOf(spec, lines.get(name) ?? []),
        new Set(specs.keys()),
        mcpServers,
      );
      if (problems.length > 0) {
        errors.push(...problems);
        specs.delete(name);
        changed = true;
      }
    }
  }
  for (const [name, spec] of specs) {
    const wildcard = spec.capabilities.includes(ALL_AGENTS);
    spec.capabilities = expandAllAgents(name, spec.capabilities, specs.keys());
    // The graph keeps `agents:*` so a run can tell an invalid spec the wildcard would have offered.
    graph.set(name, wildcard ? [...spec.capabilities, ALL_AGENTS] : spec.capabilities);
  }
  return { specs, errors: inFileOrder(errors), files: outcomes.map((o) => o.file), shadowed, graph };
}

function shapeOf(spec: LoadedSpec, capabilityLines: number[]): SpecShape {
  return {
    file: spec.source.file,
    name: spec.name,
    capabilities: spec.capabilities,
    canSpawn: spec.constraints.can_spawn,
    capabilityLines,
  };
}

/** The model and capability errors of a spec the schema rejected, so every error shows in one pass. */
function rawErrors(
  outcome: FileOutcome,
  known: ReadonlySet<string>,
  checkModel?: ModelCheck,
  mcpServers: readonly string[] = [],
): SpecError[] {
  const raw = outcome.raw;
  if (!raw) return [];
  const fieldTaken = new Set(outcome.errors.map((e) => e.field));
  const shape: SpecShape = {
    file: outcome.file,
    name: outcome.name,
    capabilities: raw.capabilities,
    canSpawn: raw.canSpawn,
    capabilityLines: outcome.capabilityLines,
  };
  const errors = [
    ...capabilityErrors(shape, known, mcpServers),
    ...(raw.model !== undefined
      ? modelError(
          { file: outcome.file, name: outcome.name, model: raw.model, line: outcome.modelLine },
          checkModel,
        )
      : []),
  ];
  // A field the schema already reported is not reported twice.
  return errors.filter((e) => !fieldTaken.has(e.field));
}

/** Validates spec texts given in code (tests, `agent agents validate FILE`), with the same rules as files. */
export function loadSpecTexts(
  files: { file: string; text: string; scope?: SpecScope }[],
  checkModel?: ModelCheck,
  mcpServers: readonly string[] = [],
): SpecLoadResult {
  return resolveSpecs(
    files.map((f) => ({ ...parseSpecText(f.text, f.file), file: f.file, scope: f.scope ?? "inline" })),
    checkModel,
    mcpServers,
  );
}
