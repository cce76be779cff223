/**
 * The primitive tool names: data, checked here and nowhere else (spec capabilities, `helper --tools`,
 * the registry). A tiny module on purpose: checking a name must not load the tools themselves.
 */

export const PRIMITIVE_NAMES = [
  "read_file",
  "write_file",
  "edit_file",
  "apply_patch",
  "exec",
  "grep",
  "glob",
  "fetch",
] as const;

export type PrimitiveName = (typeof PRIMITIVE_NAMES)[number];

/** True when `name` is one of the primitives a model can be offered. */
export function isPrimitiveName(name: string): name is PrimitiveName {
  return (PRIMITIVE_NAMES as readonly string[]).includes(name);
}
