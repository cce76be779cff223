import type { AgentIdentity, EmitFn, NotificationType } from "../../kernel/index.ts";
import type { Redactor } from "../../kernel/text/redact.ts";

/** The shapes of hooks (a leaf module: hooks.ts, hook-match.ts and hook-runner.ts all import it). */

/** One hook as configured: a shell command run for calls that `match` (rule syntax: `exec:*`,
 * `write_file:src/**`, a bare tool name; absent matches every call). */
export interface HookSpec {
  match?: string;
  command: string;
  timeoutMs?: number;
  /** The folder of the config file that declared the hook (the user's config): a relative program path in
   * `command` resolves against it, never the workspace (hook-command.ts). Absent for a trusted project's
   * hooks, whose scripts are the project's own. */
  dir?: string;
}

export interface HooksConfig {
  before_tool: HookSpec[];
  after_tool: HookSpec[];
  on_stop: HookSpec[];
  /** When a run needs the user (an approval, a form) or a long run ended; absent: none. */
  on_notification?: HookSpec[];
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
  /** Runs the on_notification hooks: a run needs the user, or a long run ended. */
  onNotification(notification: { type: NotificationType; message: string }): Promise<void>;
}

/** What the hook runner (hook-runner.ts) is given. */
export interface HookRunnerOptions {
  hooks: HooksConfig;
  cwd: string;
  sessionId: string;
  emit: EmitFn;
  /** Who warnings are reported as (the root agent). */
  who: AgentIdentity;
  redactor: Redactor;
  env?: Record<string, string | undefined>;
  signal?: AbortSignal;
}
