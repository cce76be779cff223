import { AppError } from "../../kernel/index.ts";
import type { ModelsConfig } from "../../llm/endpoints.ts";
import { resolveModel } from "../../llm/resolve.ts";
import { PRIMITIVE_NAMES } from "../../tools/types.ts";
import { isMcpCapability, isPrimitiveCapability, mcpCapabilityProblem } from "./spec.ts";

/**
 * The checks every spec gets, shared by `agent agents validate` and `agent run` (one pass, every error):
 * capabilities name a primitive, a known agent, or `agents:*`; the model names something resolvable;
 * and, for a run, which spec errors matter (those the chosen agent reaches) and which are warnings.
 */

/** One problem in one spec file (see formatSpecError). */
export interface SpecError {
  file: string;
  /** 1-based line of the offending node (or of its parent mapping when the field is missing). */
  line: number;
  /** Dotted field path, e.g. `constraints.max_turns` or `capabilities[2]`. */
  field?: string;
  message: string;
  /** The agent the file defines (its `name`, else the file's base name), to tell whether a run reaches it. */
  agent?: string;
}

/** The capability meaning "every other known agent" (the built-in root uses it). */
export const ALL_AGENTS = "agents:*";

/** Says what is wrong with a model name, or undefined when it can be resolved. */
export type ModelCheck = (name: string) => string | undefined;

/**
 * A model check against the user's config and environment: a tier, `provider:model` with a known
 * provider (config providers included), or an id whose provider is detected. Keys are not required:
 * whether a key is set is decided when the run starts, not when a spec is read.
 */
export function modelNameCheck(
  env: Record<string, string | undefined>,
  config: ModelsConfig = {},
): ModelCheck {
  return (name) => {
    try {
      resolveModel(name, { env, config, requireCredentials: false, nameErrorKind: "spec" });
      return undefined;
    } catch (error) {
      return error instanceof AppError ? error.message : String(error);
    }
  };
}

/** What the capability and model checks need to know of one spec (valid or not). */
export interface SpecShape {
  file: string;
  name: string;
  capabilities: readonly string[];
  canSpawn: boolean;
  /** 1-based line of each capability entry. */
  capabilityLines: readonly number[];
}

/** Errors of a spec's capabilities against the agents known by name and the MCP servers config declares. */
export function capabilityErrors(
  spec: SpecShape,
  known: ReadonlySet<string>,
  mcpServers: readonly string[] = [],
): SpecError[] {
  const errors: SpecError[] = [];
  spec.capabilities.forEach((cap, i) => {
    const at = {
      file: spec.file,
      line: spec.capabilityLines[i] ?? 1,
      field: `capabilities[${i}]`,
      agent: spec.name,
    };
    if (isPrimitiveCapability(cap)) return;
    if (isMcpCapability(cap)) {
      const problem = mcpCapabilityProblem(cap, mcpServers);
      if (problem !== undefined) errors.push({ ...at, message: problem });
      return;
    }
    if (cap !== ALL_AGENTS && !known.has(cap)) {
      errors.push({
        ...at,
        message: `"${cap}" names neither a primitive nor a known agent; expected a primitive (${PRIMITIVE_NAMES.join(", ")}), an agent name (${[...known].join(", ")}) or ${ALL_AGENTS}`,
      });
    } else if (cap === spec.name) {
      errors.push({ ...at, message: "an agent cannot delegate to itself; expected another agent" });
    } else if (!spec.canSpawn) {
      errors.push({
        ...at,
        message: `names ${cap === ALL_AGENTS ? "every agent" : `agent "${cap}"`} but constraints.can_spawn is false; expected only primitives`,
      });
    }
  });
  return errors;
}

/** The error of a spec's model name, if it cannot be resolved. */
export function modelError(
  spec: { file: string; name: string; model: string; line: number },
  check: ModelCheck | undefined,
): SpecError[] {
  const problem = check?.(spec.model);
  if (problem === undefined) return [];
  return [
    {
      file: spec.file,
      line: spec.line,
      field: "model",
      agent: spec.name,
      message: `expected a tier (fast, good, best, smart, auto), provider:model or a model id: ${problem}`,
    },
  ];
}

/** Capabilities with `agents:*` replaced by every other known agent (listed agents first, the rest by name). */
export function expandAllAgents(
  name: string,
  capabilities: readonly string[],
  known: Iterable<string>,
): string[] {
  if (!capabilities.includes(ALL_AGENTS)) return [...capabilities];
  const listed = capabilities.filter((c) => c !== ALL_AGENTS);
  const rest = [...known].filter((n) => n !== name && !listed.includes(n)).sort();
  return [...listed, ...rest];
}

/**
 * Splits spec errors for a run of `agent`: the errors of every agent it can reach through its
 * capabilities (`graph`: agent name -> capabilities, valid or not) are fatal; the rest are warnings.
 * `offeredByWildcard` is true when an agent the run reaches lists `agents:*`, which would have offered
 * the invalid specs too: the warning must not say they are out of reach.
 */
export function errorsForRun(
  agent: string,
  errors: readonly SpecError[],
  graph: ReadonlyMap<string, readonly string[]>,
): { fatal: SpecError[]; warnings: SpecError[]; offeredByWildcard: boolean } {
  const reached = new Set<string>();
  const queue = [agent];
  while (queue.length > 0) {
    const next = queue.shift() as string;
    if (reached.has(next)) continue;
    reached.add(next);
    for (const cap of graph.get(next) ?? []) if (!isPrimitiveCapability(cap)) queue.push(cap);
  }
  const fatal = errors.filter((e) => e.agent === undefined || reached.has(e.agent));
  const warnings = errors.filter((e) => !fatal.includes(e));
  return { fatal, warnings, offeredByWildcard: reached.has(ALL_AGENTS) };
}
