/**
 * One rule for file changes on every model. The model changes files through `edit_file` (Claude, Gemini,
 * local models), `apply_patch` (GPT models, the same capability under the family's name, see
 * src/tools/registry.ts) or `write_file`; a rule naming any of the three governs every change to the
 * paths it matches, whichever of them makes it: an update, an added file, a deleted file (a delete counts
 * as a write) and both paths of a move (apply_patch lists each path it touches as a target, see
 * src/tools/policy-target.ts). So `--allow 'edit_file:**'` lets a GPT model's patch through, and
 * `--deny 'write_file:.env'` stops an edit or a patch of `.env` too.
 *
 * As in Claude Code, whose permission docs say "`Edit` rules apply to all built-in tools that edit files"
 * (https://code.claude.com/docs/en/permissions, section "Read & Edit"; formerly
 * docs.anthropic.com/en/docs/claude-code/iam).
 */
export const FILE_CHANGE_TOOLS: ReadonlySet<string> = new Set(["edit_file", "write_file", "apply_patch"]);

/** Whether a rule naming `ruleTool` applies to a call of `requestTool`. */
export function ruleApplies(ruleTool: string, requestTool: string): boolean {
  if (ruleTool === requestTool) return true;
  return FILE_CHANGE_TOOLS.has(ruleTool) && FILE_CHANGE_TOOLS.has(requestTool);
}

/**
 * The tool name a suggested or granted rule uses for a call of `tool`: `edit_file` for a patch, since that
 * name is offered to every model family other than GPT and people know it; the tool's own name otherwise.
 */
export function ruleToolFor(tool: string): string {
  return tool === "apply_patch" ? "edit_file" : tool;
}
