import { normalizeTarget, patternMatches } from "../policy/match.ts";
import { parseRule } from "../policy/rules.ts";

/**
 * Hooks around tool calls (user config `hooks:`): what they are, which calls they match, and the interface
 * the pipeline calls. Running them (a process per hook) lives in hook-runner.ts, loaded only when a config
 * declares hooks.
 */

/** One hook as configured: a shell command run for calls that `match` (rule syntax: `exec:*`,
 * `write_file:src/**`, a bare tool name; absent matches every call). */
export interface HookSpec {
  match?: string;
  command: string;
  timeoutMs?: number;
}

export interface HooksConfig {
  before_tool: HookSpec[];
  after_tool: HookSpec[];
  on_stop: HookSpec[];
}

/** A call as hooks see it: the tool, the name rules match, its policy targets and arguments. */
export interface HookCall {
  tool: string;
  policyName: string;
  targets: string[];
  args: Record<string, unknown>;
}

/** What the hooks said: `block` stops the call (exit 2, the reason the model sees); `note` is added to
 * what the model sees (exit 0 with output). */
export interface HookVerdict {
  block?: string;
  note?: string;
}

/** The pipeline's view of the session's hooks. */
export interface ToolHooks {
  before(call: HookCall): Promise<HookVerdict>;
  after(call: HookCall, result: { modelText: string; isError: boolean }): Promise<HookVerdict>;
  /** Runs the on_stop hooks once the root run ended. */
  onStop(end: { status: string; finishReason: string; answer: string }): Promise<void>;
}

/** Whether a hook's `match` covers a call, with the approval rules' pattern syntax. */
export function hookMatches(match: string | undefined, call: HookCall): boolean {
  if (match === undefined || match === "*") return true;
  const rule = parseRule(match, "allow", "user");
  if (rule.tool !== call.policyName && rule.tool !== call.tool) return false;
  if (rule.pattern === undefined) return true;
  const pattern = rule.pattern;
  return call.targets.some((t) => patternMatches(rule.tool, pattern, normalizeTarget(rule.tool, t)));
}

/** Hooks of several sources (user config, a trusted project, a library caller) in that order; undefined
 * when none is declared, so no hook code loads. */
export function mergeHooks(lists: (HooksConfig | undefined)[]): HooksConfig | undefined {
  const present = lists.filter((h): h is HooksConfig => h !== undefined);
  const merged: HooksConfig = {
    before_tool: present.flatMap((h) => h.before_tool),
    after_tool: present.flatMap((h) => h.after_tool),
    on_stop: present.flatMap((h) => h.on_stop),
  };
  const any = merged.before_tool.length + merged.after_tool.length + merged.on_stop.length > 0;
  return any ? merged : undefined;
}
