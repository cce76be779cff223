import type { PolicyTarget, ToolContext } from "./types.ts";

/** The policy target of a tool that changes `path`: .git internals and agent config are sensitive. */
export async function pathTarget(path: string, ctx: ToolContext): Promise<PolicyTarget> {
  const rel = ctx.workspace.relative(await ctx.workspace.resolve(path));
  return { targets: [rel], sensitive: ctx.workspace.isSensitive(rel) };
}

/** The policy target of a tool that only reads `path`: reading is not changing, so nothing is sensitive. */
export async function readTarget(path: string, ctx: ToolContext): Promise<PolicyTarget> {
  const rel = ctx.workspace.relative(await ctx.workspace.resolve(path));
  return { targets: [rel], sensitive: false };
}
