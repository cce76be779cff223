import type { HookRunnerOptions, HooksConfig, ToolHooks } from "./hook-types.ts";

export { hookMatches } from "./hook-match.ts";
export type {
  HookCall,
  HookRunnerOptions,
  HookSpec,
  HooksConfig,
  HookVerdict,
  ToolHooks,
} from "./hook-types.ts";

/**
 * Hooks around tool calls (user config `hooks:`): what they are (hook-types.ts), which calls they match
 * (hook-match.ts), and the interface the pipeline calls. Running them (a process per hook) lives in hook-runner.ts, loaded only when a config
 * declares hooks.
 */

/** The hooks of several sources (user config, a trusted project, a library caller) in that order;
 * undefined when none declares any. */
export function mergeHooks(lists: (HooksConfig | undefined)[]): HooksConfig | undefined {
  const present = lists.filter((h): h is HooksConfig => h !== undefined);
  const merged: HooksConfig = {
    before_tool: present.flatMap((h) => h.before_tool),
    after_tool: present.flatMap((h) => h.after_tool),
    on_stop: present.flatMap((h) => h.on_stop),
    on_notification: present.flatMap((h) => h.on_notification ?? []),
  };
  const any =
    merged.before_tool.length +
      merged.after_tool.length +
      merged.on_stop.length +
      (merged.on_notification?.length ?? 0) >
    0;
  return any ? merged : undefined;
}

/** The hooks of one config file, with `dir` (that file's folder) set on each; see hook-command.ts. */
export function hooksDeclaredIn(hooks: HooksConfig, dir: string): HooksConfig {
  const inDir = (list: HooksConfig["before_tool"]) => list.map((hook) => ({ ...hook, dir }));
  return {
    before_tool: inDir(hooks.before_tool),
    after_tool: inDir(hooks.after_tool),
    on_stop: inDir(hooks.on_stop),
    ...(hooks.on_notification ? { on_notification: inDir(hooks.on_notification) } : {}),
  };
}

/** The runner of `options.hooks`, with hook-runner.ts (and the process machinery) loaded only now. */
export async function loadHookRunner(options: HookRunnerOptions): Promise<ToolHooks> {
  const { createHookRunner } = await import("./hook-runner.ts");
  return createHookRunner(options);
}
