import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { isMap, isScalar, isSeq, LineCounter, type Node, parseDocument } from "yaml";
import type { z } from "zod";
import {
  AppError,
  configDir,
  MAX_ALIAS_COUNT,
  readConfigFileResult,
  yamlAliasMessage,
} from "../kernel/index.ts";
import { BOOTSTRAP_TEXTS, EMBEDDED_BOOTSTRAP_DIR } from "./bootstrap-specs.ts";
import {
  type AgentSpec,
  agentSpecSchema,
  CONSTRAINT_FIELDS,
  isPrimitiveCapability,
  type LoadedSpec,
  type SpecScope,
} from "./spec.ts";

/**
 * Finds, parses and validates agent spec files. Every error names the file, the line and the field,
 * and says what was expected; nothing invalid is silently dropped (a bad capability is an error).
 */

/** One problem in one spec file. */
export interface SpecError {
  file: string;
  /** 1-based line of the offending node (or of its parent mapping when the field is missing). */
  line: number;
  /** Dotted field path, e.g. `constraints.max_turns` or `capabilities[2]`. */
  field?: string;
  message: string;
}

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
}

/** A valid spec that a nearer one of the same name overrides. */
export interface ShadowedSpec {
  name: string;
  file: string;
  scope: SpecScope;
}

/** The repo's built-in specs, located relative to this module. */
export const BOOTSTRAP_DIR = path.resolve(import.meta.dir, "../../bootstrap");

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

/** Formats an error as `FILE:LINE: FIELD: message`. */
export function formatSpecError(error: SpecError): string {
  return `${error.file}:${error.line}: ${error.field ? `${error.field}: ` : ""}${error.message}`;
}

/** Turns the first error into an AppError of kind "spec" (exit code 3). */
export function specAppError(errors: SpecError[]): AppError {
  const first = errors[0];
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : "";
  return new AppError("spec", `${first ? formatSpecError(first) : "invalid agent spec"}${more}`, {
    file: first?.file,
    line: first?.line,
    field: first?.field,
  });
}

/** The result of parsing one file: the spec when valid, and the line of each capability for later checks. */
export interface ParsedSpecFile {
  spec?: AgentSpec;
  errors: SpecError[];
  capabilityLines: number[];
}

/** Parses and validates one spec file's text (capabilities are checked later, against all known agents). */
export function parseSpecText(text: string, file: string): ParsedSpecFile {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  const lineOf = (offset: number | undefined): number =>
    offset === undefined ? 1 : lineCounter.linePos(offset).line;
  if (doc.errors.length > 0) {
    return {
      errors: doc.errors.map((e) => ({
        file,
        line: lineOf(e.pos[0]),
        message: `invalid YAML: ${e.message}`,
      })),
      capabilityLines: [],
    };
  }
  const root = doc.contents;
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    return { errors: [aliasError(file, error)], capabilityLines: [] };
  }
  if (!isMap(root)) {
    return {
      errors: [
        { file, line: lineOf(root?.range?.[0]), message: "expected a mapping with name, description, ..." },
      ],
      capabilityLines: [],
    };
  }
  const parsed = agentSpecSchema.safeParse(value);
  const capabilityLines = capabilityNodeLines(root, lineOf);
  if (!parsed.success) {
    const errors = parsed.error.issues.flatMap((issue) => issueErrors(issue, root, file, lineOf));
    return { errors, capabilityLines };
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
  return errors.length > 0 ? { errors, capabilityLines } : { spec, errors, capabilityLines };
}

/** A spec error for a document whose aliases could not be resolved (an alias bomb, an alias loop). */
function aliasError(file: string, error: unknown): SpecError {
  return { file, line: 1, message: yamlAliasMessage(error) };
}

function capabilityNodeLines(root: Node, lineOf: (offset: number | undefined) => number): number[] {
  const caps = locateExact(root, ["capabilities"]);
  if (!caps || !isSeq(caps)) return [];
  return caps.items.map((item) => lineOf((item as Node | null)?.range?.[0]));
}

function issueErrors(
  issue: z.core.$ZodIssue,
  root: Node,
  file: string,
  lineOf: (offset: number | undefined) => number,
): SpecError[] {
  const segments = issue.path.filter((p): p is string | number => typeof p !== "symbol");
  if (issue.code === "unrecognized_keys") {
    return issue.keys.map((key) => {
      const keyPath = [...segments, key];
      return {
        file,
        line: lineOf(locateKey(root, keyPath)?.range?.[0] ?? locate(root, segments).range?.[0]),
        field: fieldName(keyPath),
        message: `unknown field; expected one of: ${knownFields(segments).join(", ")}`,
      };
    });
  }
  const node = locateExact(root, segments);
  const message =
    node === undefined ? `missing; expected ${expectation(issue)}` : `expected ${expectation(issue)}`;
  return [{ file, line: lineOf(locate(root, segments).range?.[0]), field: fieldName(segments), message }];
}

function knownFields(segments: (string | number)[]): string[] {
  if (segments[0] === "constraints") return CONSTRAINT_FIELDS;
  return Object.keys(agentSpecSchema.shape);
}

function expectation(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case "invalid_type":
      // A field's own message (the budgets') says more than the type name.
      if (!issue.message.startsWith("Invalid input")) return issue.message;
      return `${issue.expected === "array" ? "a list" : `a ${issue.expected}`}`;
    case "too_small":
      return issue.message.startsWith("Too small") ? `a value >= ${String(issue.minimum)}` : issue.message;
    case "invalid_format":
      return issue.message;
    default:
      return issue.message;
  }
}

/** `constraints.max_turns`, `capabilities[2]`. */
function fieldName(segments: (string | number)[]): string {
  let out = "";
  for (const s of segments) out += typeof s === "number" ? `[${s}]` : out ? `.${s}` : s;
  return out;
}

/** The node at `segments`, or undefined when any step is missing. */
function locateExact(root: Node, segments: (string | number)[]): Node | undefined {
  let node: Node | undefined = root;
  for (const segment of segments) {
    if (node === undefined) return undefined;
    node = child(node, segment);
  }
  return node;
}

/** The deepest existing node along `segments` (the parent mapping when a field is missing). */
function locate(root: Node, segments: (string | number)[]): Node {
  let node: Node = root;
  for (const segment of segments) {
    const next = child(node, segment);
    if (next === undefined) return node;
    node = next;
  }
  return node;
}

/** The key node of the last segment (for unknown-field errors). */
function locateKey(root: Node, segments: (string | number)[]): Node | undefined {
  const parent = locateExact(root, segments.slice(0, -1));
  const last = segments[segments.length - 1];
  if (!parent || !isMap(parent)) return undefined;
  const pair = parent.items.find((p) => isScalar(p.key) && p.key.value === last);
  return (pair?.key as Node | undefined) ?? undefined;
}

function child(node: Node, segment: string | number): Node | undefined {
  if (isMap(node)) {
    const pair = node.items.find((p) => isScalar(p.key) && p.key.value === segment);
    if (!pair) return undefined;
    return (pair.value as Node | null) ?? (pair.key as Node);
  }
  if (isSeq(node) && typeof segment === "number") return (node.items[segment] as Node | null) ?? undefined;
  return undefined;
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
          errors: [{ file, line: 1, message: read.refused }],
          capabilityLines: [],
          file,
          scope: source.scope,
        });
        continue;
      }
      outcomes.push({ ...parseSpecText(read.text, file), file, scope: source.scope });
    }
  }
  return resolveSpecs(outcomes);
}

/** Merges parsed files (nearest first) into the final set and checks capabilities against it. */
function resolveSpecs(outcomes: FileOutcome[]): SpecLoadResult {
  const specs = new Map<string, LoadedSpec>();
  const errors: SpecError[] = [];
  const lines = new Map<string, number[]>();
  const seenInScope = new Map<string, string>();
  const shadowed: ShadowedSpec[] = [];
  for (const outcome of outcomes) {
    errors.push(...outcome.errors);
    const spec = outcome.spec;
    if (!spec) continue;
    const scopedKey = `${outcome.scope}:${spec.name}`;
    const earlier = seenInScope.get(scopedKey);
    if (earlier !== undefined) {
      errors.push({
        file: outcome.file,
        line: 1,
        field: "name",
        message: `agent "${spec.name}" is already defined in ${earlier}; expected a unique name`,
      });
      continue;
    }
    seenInScope.set(scopedKey, outcome.file);
    if (specs.has(spec.name)) {
      shadowed.push({ name: spec.name, file: outcome.file, scope: outcome.scope }); // a nearer spec won
      continue;
    }
    specs.set(spec.name, { ...spec, source: { file: outcome.file, scope: outcome.scope } });
    lines.set(spec.name, outcome.capabilityLines);
  }
  // Repeat until stable: dropping an invalid spec can invalidate a spec that delegates to it.
  for (let changed = true; changed; ) {
    changed = false;
    for (const [name, spec] of [...specs]) {
      const problems = capabilityErrors(spec, specs, lines.get(name) ?? []);
      if (problems.length > 0) {
        errors.push(...problems);
        specs.delete(name);
        changed = true;
      }
    }
  }
  return { specs, errors, files: outcomes.map((o) => o.file), shadowed };
}

function capabilityErrors(spec: LoadedSpec, known: Map<string, LoadedSpec>, lines: number[]): SpecError[] {
  const errors: SpecError[] = [];
  const file = spec.source.file;
  spec.capabilities.forEach((cap, i) => {
    const line = lines[i] ?? 1;
    const field = `capabilities[${i}]`;
    if (isPrimitiveCapability(cap)) return;
    if (!known.has(cap)) {
      errors.push({
        file,
        line,
        field,
        message: `"${cap}" names neither a primitive nor a known agent; expected a primitive (read_file, write_file, edit_file, apply_patch, exec, grep, glob, fetch) or an agent name (${[...known.keys()].join(", ")})`,
      });
    } else if (cap === spec.name) {
      errors.push({
        file,
        line,
        field,
        message: `an agent cannot delegate to itself; expected another agent`,
      });
    } else if (!spec.constraints.can_spawn) {
      errors.push({
        file,
        line,
        field,
        message: `names agent "${cap}" but constraints.can_spawn is false; expected only primitives`,
      });
    }
  });
  return errors;
}

/** Validates spec texts given in code (tests, `agent agents validate FILE`), with the same rules as files. */
export function loadSpecTexts(files: { file: string; text: string; scope?: SpecScope }[]): SpecLoadResult {
  return resolveSpecs(
    files.map((f) => ({ ...parseSpecText(f.text, f.file), file: f.file, scope: f.scope ?? "inline" })),
  );
}
