/**
 * The primitives by name, and what a model is offered. On OpenAI models `edit_file` is offered as
 * `apply_patch` (the format they are trained on); on every other provider `apply_patch` is offered as
 * `edit_file`. Asking for both yields one tool.
 */

import type { ProviderKind, ToolDefinition } from "../kernel/index.ts";
import { applyPatchTool } from "./apply-patch.ts";
import { editFileTool } from "./edit-file.ts";
import { execTool } from "./exec.ts";
import { createFetchTool, type FetchToolOptions } from "./fetch.ts";
import { globTool } from "./glob.ts";
import { grepTool } from "./grep.ts";
import { readFileTool } from "./read-file.ts";
import { PRIMITIVE_NAMES, type Primitive, type PrimitiveName } from "./types.ts";
import { writeFileTool } from "./write-file.ts";

/** Options for building the primitives (fetch's DNS lookup and allow-list). */
export interface PrimitiveOptions {
  fetch?: FetchToolOptions;
}

/** Every primitive by name. The loop passes `run` the value `validate` returned, so argument types agree. */
export function createPrimitives(options: PrimitiveOptions = {}): Record<PrimitiveName, Primitive> {
  return {
    read_file: readFileTool,
    write_file: writeFileTool,
    edit_file: editFileTool,
    apply_patch: applyPatchTool,
    exec: execTool,
    grep: grepTool,
    glob: globTool,
    fetch: createFetchTool(options.fetch),
  };
}

/** The primitives with default options. */
export const PRIMITIVES: Record<PrimitiveName, Primitive> = createPrimitives();

export function isPrimitiveName(name: string): name is PrimitiveName {
  return (PRIMITIVE_NAMES as readonly string[]).includes(name);
}

/** The primitive a model of `provider` is offered when a spec asks for `name`. */
export function offeredName(name: PrimitiveName, provider: ProviderKind): PrimitiveName {
  if (provider === "openai" && name === "edit_file") return "apply_patch";
  if (provider !== "openai" && name === "apply_patch") return "edit_file";
  return name;
}

/**
 * Tool definitions for `names` as offered to `provider` (swapped and de-duplicated, in first-asked order)
 * and the primitive behind each offered name.
 */
export function toolDefinitionsFor(
  names: readonly PrimitiveName[],
  provider: ProviderKind,
  primitives: Record<PrimitiveName, Primitive> = PRIMITIVES,
): { definitions: ToolDefinition[]; primitives: Map<string, Primitive> } {
  const offered = new Map<string, Primitive>();
  for (const name of names) {
    const actual = offeredName(name, provider);
    if (!offered.has(actual)) offered.set(actual, primitives[actual]);
  }
  const definitions = [...offered.values()].map((p) => ({
    name: p.name,
    description: p.description,
    parameters: p.parameters,
  }));
  return { definitions, primitives: offered };
}
