export * from "./approvers.ts";
export * from "./evaluate.ts";
export * from "./gate.ts";
export { escapePattern, PATH_TOOLS, patternMatches } from "./match.ts";
export * from "./rules.ts";
export * from "./shell-split.ts";
export * from "./suggest.ts";
export type * from "./types.ts";
