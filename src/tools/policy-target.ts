import type { PolicyTarget, ToolContext } from "./types.ts";

/**
 * The policy target of a tool that changes `paths` (write_file, edit_file, apply_patch with its moves and
 * deletes): each resolved inside the workspace; sensitive when any is git or agent metadata (see
 * Workspace.isSensitiveChange), so a broad allow rule such as `write_file:**` still asks for it.
 */
export async function changeTarget(paths: string[], ctx: ToolContext): Promise<PolicyTarget> {
  const targets: string[] = [];
  let sensitive = false;
  for (const path of paths) {
    const abs = await ctx.workspace.resolve(path);
    targets.push(ctx.workspace.relative(abs));
    if (await ctx.workspace.isSensitiveChange(abs)) sensitive = true;
  }
  return { targets, sensitive };
}

/** The policy target of a tool that changes `path`. */
export function pathTarget(path: string, ctx: ToolContext): Promise<PolicyTarget> {
  return changeTarget([path], ctx);
}

/** The policy target of a tool that only reads `path`: reading is not changing, so nothing is sensitive. */
export async function readTarget(path: string, ctx: ToolContext): Promise<PolicyTarget> {
  const abs = await ctx.workspace.resolveForRead(path);
  const rel = ctx.workspace.relative(abs);
  return {
    targets: [rel],
    sensitive: false,
    ...(ctx.workspace.inReadOnlyRoot(abs) ? { skillFolder: true } : {}),
  };
}
