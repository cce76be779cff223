import { evaluate } from "../../policy/evaluate.ts";
import { patternMatches } from "../../policy/match.ts";
import { parseRule } from "../../policy/rules.ts";
import type { HookRunnerOptions } from "./hook-runner.ts";

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

/**
 * Whether a hook's `match` covers a call: exactly when, as a deny rule, it would refuse the call. So
 * `exec:rm *` sees `rm` wherever a deny rule would (`make && rm -rf x`, `/bin/rm`, `sudo rm`,
 * `bash -c 'rm …'`), and a guard hook cannot be dodged by chaining commands. A match may also name the
 * tool's own name (`verify`).
 */
export function hookMatches(match: string | undefined, call: HookCall): boolean {
  if (match === undefined || match === "*") return true;
  const rule = parseRule(match, "deny", "user");
  if (rule.tool === call.policyName) {
    const request = { tool: call.policyName, targets: call.targets, readOnly: false, sensitive: false };
    return evaluate(request, [rule]).effect === "deny";
  }
  if (rule.tool !== call.tool) return false;
  const pattern = rule.pattern;
  return pattern === undefined || call.targets.some((t) => patternMatches(rule.tool, pattern, t));
}

/** The hooks of several sources (user config, a trusted project, a library caller) in that order;
 * undefined when none declares any. */
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

/** The runner of `options.hooks`, with hook-runner.ts (and the process machinery) loaded only now. */
export async function loadHookRunner(options: HookRunnerOptions): Promise<ToolHooks> {
  const { createHookRunner } = await import("./hook-runner.ts");
  return createHookRunner(options);
}
