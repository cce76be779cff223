/**
 * The checkpoint step of the tool pipeline (docs/rewind.md): a call of a primitive that changes files
 * (`write_file`, `edit_file`, `apply_patch` on the paths it names, `exec` on the whole workspace) runs
 * with the files recorded before and after it, and what changed becomes a `checkpoint` record in the
 * transcript. Sub-agents share the session's checkpointer, so their changes land in the same store.
 */
import { type AgentIdentity, type EmitFn, makeEvent, type ToolCall } from "../../../kernel/index.ts";
import type { ChangeScope, Checkpointer } from "../../../tools/checkpoints/checkpointer.ts";
import type { PolicyTarget, Tool, ToolRunOutput } from "../../../tools/types.ts";

const FILE_TOOLS = new Set(["write_file", "edit_file", "apply_patch"]);

/** What a call changes, or undefined when it changes no file. */
function scopeOf(tool: Tool, target: PolicyTarget): ChangeScope | undefined {
  if (tool.kind !== "primitive") return undefined;
  if (tool.name === "exec") return "workspace";
  return FILE_TOOLS.has(tool.name) ? { paths: target.targets } : undefined;
}

/** Runs `execute`, checkpointed when the call changes files and the session keeps checkpoints. */
export async function checkpointed(
  tool: Tool,
  call: ToolCall,
  target: PolicyTarget,
  ctx: { who: AgentIdentity; emit: EmitFn; checkpoints?: Checkpointer },
  execute: () => Promise<ToolRunOutput>,
): Promise<ToolRunOutput> {
  const scope = scopeOf(tool, target);
  if (ctx.checkpoints === undefined || scope === undefined) return execute();
  const { value, change, warning } = await ctx.checkpoints.around(scope, execute);
  if (warning !== undefined)
    ctx.emit(makeEvent(ctx.who, "warning", { message: warning, code: "checkpoint" }));
  if (change !== undefined) {
    ctx.emit(
      makeEvent(ctx.who, "checkpoint", {
        tool: tool.name,
        callId: call.id,
        turn: ctx.checkpoints.turn,
        files: change.files,
        ...(change.skipped.length > 0 ? { skipped: change.skipped } : {}),
      }),
    );
  }
  return value;
}
