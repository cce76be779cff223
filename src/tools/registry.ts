/**
 * The primitives by name, and what a model is offered. The swap follows the model's family, not its wire
 * protocol: OpenAI GPT models are offered `apply_patch` for `edit_file` (the format they are trained on);
 * every other family, local models on an OpenAI-compatible server included, is offered `edit_file` for
 * `apply_patch`. Asking for both yields one tool.
 */

import type { ModelFamily, ToolDefinition } from "../kernel/index.ts";
import { execTool } from "./exec/exec.ts";
import { createFetchTool, type FetchToolOptions } from "./fetch/fetch.ts";
import { applyPatchTool } from "./files/apply-patch.ts";
import { editFileTool } from "./files/edit-file.ts";
import { readFileTool } from "./files/read-file.ts";
import { writeFileTool } from "./files/write-file.ts";
import type { PrimitiveName } from "./names.ts";
import { globTool } from "./search/glob.ts";
import { grepTool } from "./search/grep.ts";
import type { Primitive } from "./types.ts";

export { isPrimitiveName } from "./names.ts";

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

/** The primitive a model of `family` is offered when a spec asks for `name`. */
export function offeredName(name: PrimitiveName, family: ModelFamily): PrimitiveName {
  if (family === "gpt" && name === "edit_file") return "apply_patch";
  if (family !== "gpt" && name === "apply_patch") return "edit_file";
  return name;
}

/**
 * Tool definitions for `names` as offered to a model of `family` (swapped and de-duplicated, in first-asked order)
 * and the primitive behind each offered name.
 */
export function toolDefinitionsFor(
  names: readonly PrimitiveName[],
  family: ModelFamily,
  primitives: Record<PrimitiveName, Primitive> = PRIMITIVES,
): { definitions: ToolDefinition[]; primitives: Map<string, Primitive> } {
  const offered = new Map<string, Primitive>();
  for (const name of names) {
    const actual = offeredName(name, family);
    if (!offered.has(actual)) offered.set(actual, primitives[actual]);
  }
  const definitions = [...offered.values()].map((p) => ({
    name: p.name,
    description: p.description,
    parameters: p.parameters,
  }));
  return { definitions, primitives: offered };
}
