/**
 * What a hook that exited 0 said on stdout. Plain text is a note for the model. A JSON object is read as
 * Claude Code's hook output (https://code.claude.com/docs/en/hooks, "JSON output"; its hooks guide moved
 * from the older form to the newer one in Feb 2026, and hooks in the wild use both):
 * - newer, PreToolUse: `{"hookSpecificOutput": {"permissionDecision": "deny", "permissionDecisionReason":
 *   "…", "additionalContext": "…"}}`;
 * - older, PreToolUse and PostToolUse: `{"decision": "block", "reason": "…"}`.
 * A deny or block stops the call as exit 2 does. "allow", "ask" and "defer" approve nothing here: the call
 * still goes to the approval gate, since a hook may block but never approve. Without this, a guard hook
 * ported from Claude Code would look like it works and never block.
 */

/** The hook's say: `block` with its reason ("" when it gave none), and a `note` for the model. */
export interface HookOutput {
  block?: string;
  note?: string;
}

export function readHookOutput(stdout: string): HookOutput {
  const text = stdout.trim();
  if (text === "") return {};
  const json = parseObject(text);
  if (json === undefined) return { note: text };
  const specific = isObject(json.hookSpecificOutput) ? json.hookSpecificOutput : {};
  const context = stringOr(specific.additionalContext);
  const note = context ? { note: context } : {};
  if (specific.permissionDecision === "deny") {
    return { block: stringOr(specific.permissionDecisionReason) ?? stringOr(json.reason) ?? "", ...note };
  }
  if (json.decision === "block") return { block: stringOr(json.reason) ?? "", ...note };
  return note;
}

function parseObject(text: string): Record<string, unknown> | undefined {
  if (!text.startsWith("{")) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function stringOr(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}
