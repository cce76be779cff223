import { makeEvent } from "../../kernel/index.ts";
import { minimalEnv } from "../../tools/exec/exec-env.ts";
import { runCommand } from "../../tools/exec/run-command.ts";
import { resolveHookCommand } from "./hook-command.ts";
import { hookMatches } from "./hook-match.ts";
import { readHookOutput } from "./hook-output.ts";
import type {
  HookCall,
  HookRunnerOptions,
  HookSpec,
  HooksConfig,
  HookVerdict,
  ToolHooks,
} from "./hook-types.ts";

/**
 * Runs the session's hooks. The protocol follows Claude Code's hooks (PreToolUse/PostToolUse/Stop,
 * https://code.claude.com/docs/en/hooks: the event as JSON on stdin; exit 0 goes on, exit 2 blocks with
 * stderr as the reason the model sees, any other code is a non-blocking error). Each hook is a `bash -c`
 * command in the workspace (a user hook's program path resolved against its config's folder first,
 * hook-command.ts) with the exec primitive's machinery (own process group, descendants swept,
 * minimal environment without keys, plus AGENT_SESSION_ID), ended at its timeout with a warning.
 */

/** A hook's time limit when its config names none. */
export const DEFAULT_HOOK_TIMEOUT_MS = 30_000;
/** Bytes kept of a hook's stdout and of its stderr. */
const HOOK_OUTPUT_LIMIT = 16_000;

type HookEventName = keyof HooksConfig;

/**
 * What a user hook's environment adds: Python does not put the working directory (the workspace) first on
 * sys.path, so `python3 -m tool` in a user hook imports the installed module, never the repository's
 * `tool.py`. PYTHONSAFEPATH (Python 3.11+): "Don't prepend a potentially unsafe path to sys.path": for
 * `python -m module` the current working directory, for `python script.py` the script's directory
 * (https://docs.python.org/3/using/cmdline.html#envvar-PYTHONSAFEPATH; cpython gh-57684, PR #31542).
 */
const USER_HOOK_ENV = { PYTHONSAFEPATH: "1" } as const;

export function createHookRunner(options: HookRunnerOptions): ToolHooks {
  const run = (name: HookEventName, hook: HookSpec, event: Record<string, unknown>) =>
    runHook(name, hook, event, options);
  const base = (name: HookEventName) => ({
    hook_event_name: name,
    session_id: options.sessionId,
    cwd: options.cwd,
  });
  const callEvent = (name: HookEventName, call: HookCall) => ({
    ...base(name),
    tool_name: call.tool,
    target: call.policyName,
    targets: call.targets,
    tool_input: call.args,
  });
  return {
    async before(call) {
      return runAll("before_tool", call, callEvent("before_tool", call), options, run);
    },
    async after(call, result) {
      const event = {
        ...callEvent("after_tool", call),
        tool_response: { text: result.modelText, is_error: result.isError },
      };
      return runAll("after_tool", call, event, options, run);
    },
    async onStop(end) {
      const event = {
        ...base("on_stop"),
        status: end.status,
        finish_reason: end.finishReason,
        answer: end.answer,
      };
      for (const hook of options.hooks.on_stop) await run("on_stop", hook, event);
    },
    async onNotification(notification) {
      // Claude Code's Notification input (https://code.claude.com/docs/en/hooks#notification-input):
      // `hook_event_name: "Notification"`, `message`, `notification_type`, beside our session_id and cwd.
      const event = {
        session_id: options.sessionId,
        cwd: options.cwd,
        hook_event_name: "Notification",
        message: notification.message,
        notification_type: notification.type,
      };
      for (const hook of options.hooks.on_notification ?? []) await run("on_notification", hook, event);
    },
  };
}

/** Runs every matching hook in order; the first block wins, notes are collected. */
async function runAll(
  name: "before_tool" | "after_tool",
  call: HookCall,
  event: Record<string, unknown>,
  options: HookRunnerOptions,
  run: (name: HookEventName, hook: HookSpec, event: Record<string, unknown>) => Promise<HookVerdict>,
): Promise<HookVerdict> {
  const notes: string[] = [];
  for (const hook of options.hooks[name]) {
    if (!hookMatches(hook.match, call)) continue;
    const verdict = await run(name, hook, event);
    if (verdict.note) notes.push(verdict.note);
    if (verdict.block !== undefined)
      return { block: verdict.block, ...(notes.length ? { note: notes.join("\n") } : {}) };
  }
  return notes.length > 0 ? { note: notes.join("\n") } : {};
}

async function runHook(
  name: HookEventName,
  hook: HookSpec,
  event: Record<string, unknown>,
  options: HookRunnerOptions,
): Promise<HookVerdict> {
  const timeoutMs = hook.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS;
  const result = await runCommand(resolveHookCommand(hook.command, hook.dir), {
    cwd: options.cwd,
    env: {
      ...minimalEnv(options.env ?? process.env),
      AGENT_SESSION_ID: options.sessionId,
      ...(hook.dir !== undefined ? USER_HOOK_ENV : {}),
    },
    timeoutMs,
    signal: options.signal ?? new AbortController().signal,
    outputLimit: HOOK_OUTPUT_LIMIT,
    input: `${JSON.stringify(event)}\n`,
    separateStderr: true,
  });
  const stderr = options.redactor.redact(result.stderr ?? "").trim();
  const blocked = (reason: string) => ({
    block: reason || `blocked by the ${name} hook \`${hook.command}\``,
  });
  const warn = (why: string) => {
    const message = `${name} hook \`${hook.command}\` ${why}`;
    options.emit(makeEvent(options.who, "warning", { message, code: "hook" }));
  };
  if (result.spawnError !== undefined) warn(`could not start: ${result.spawnError}`);
  else if (result.timedOut) warn(`timed out after ${timeoutMs} ms; the call goes on`);
  else if (result.aborted) return {};
  else if (result.exitCode === 2 && blocks(name)) return blocked(stderr);
  else if (result.exitCode === 0) {
    // Plain text is a note; Claude Code's JSON output may block too (hook-output.ts). Redacted after
    // parsing, so a secret cannot break the JSON.
    const said = readHookOutput(result.output);
    const note = said.note !== undefined ? { note: options.redactor.redact(said.note) } : {};
    if (said.block !== undefined && blocks(name)) {
      return { ...blocked(options.redactor.redact(said.block)), ...note };
    }
    return note;
  } else
    warn(`exited with ${result.exitCode ?? result.exitSignal}${stderr ? `: ${stderr.split("\n")[0]}` : ""}`);
  return {};
}

/** Only hooks around a call can block it: on_stop and on_notification report, they decide nothing. */
function blocks(name: HookEventName): boolean {
  return name === "before_tool" || name === "after_tool";
}
