/**
 * A session's notifications (docs/configuration.md "Notifications"): when a person must answer (an approval
 * prompt, an MCP server's form) or a run ended after `notifications.after_seconds`, the session emits a
 * `notification` event (the CLI tells the terminal from it) and runs the `on_notification` hooks with
 * Claude Code's Notification payload (hook-runner.ts). A flag answering for the user (`--on-ask`, `-p`, no
 * terminal) needs nobody, so it notifies nothing.
 */
import { type HooksConfig, loadHookRunner } from "../agents/hooks/hooks.ts";
import {
  type AgentEvent,
  type AgentIdentity,
  type ApprovalRequest,
  DEFAULT_NOTIFY_AFTER_SECONDS,
  type ElicitationQuestion,
  type EmitFn,
  makeEvent,
  type NotificationType,
} from "../kernel/index.ts";
import type { Redactor } from "../kernel/text/redact.ts";

/** Tells the user something needs them. */
export type Notify = (type: NotificationType, message: string) => void;

/** A Notify whose hooks can be waited for (a session's close waits, so an exit cuts no hook short). */
export interface SessionNotifier {
  notify: Notify;
  settled(): Promise<void>;
}

export interface NotifierDeps {
  emit: EmitFn;
  who: AgentIdentity;
  hooks?: HooksConfig;
  cwd: string;
  env: Record<string, string | undefined>;
  redactor: Redactor;
  /** The session id of the run going on (a chat's `/clear` starts another). */
  sessionId(): string;
}

/** The session's Notify: the event, then the hooks (not awaited: the prompt shows at once). */
export function sessionNotifier(deps: NotifierDeps): SessionNotifier {
  const pending = new Set<Promise<void>>();
  const notify: Notify = (type, message) => {
    deps.emit(makeEvent(deps.who, "notification", { notificationType: type, message }));
    const hooks = deps.hooks;
    if (!hooks?.on_notification?.length) return;
    const running = loadHookRunner({
      hooks,
      cwd: deps.cwd,
      sessionId: deps.sessionId(),
      emit: deps.emit,
      who: deps.who,
      redactor: deps.redactor,
      env: deps.env,
    }).then((runner) => runner.onNotification({ type, message }));
    pending.add(running);
    void running.finally(() => pending.delete(running));
  };
  return {
    notify,
    async settled() {
      await Promise.allSettled([...pending]);
    },
  };
}

/** What an approval prompt's notification says: who asks to do what. */
export function approvalMessage(request: ApprovalRequest): string {
  const what = request.what ?? `run ${request.tool}${request.target ? ` ${request.target}` : ""}`;
  return `${request.agentName} needs your approval to ${what}`;
}

/** What an MCP form's notification says. */
export function elicitationMessage(question: ElicitationQuestion): string {
  return `MCP server ${question.server} asks for input: ${question.message}`;
}

/**
 * The run's emit, with a notification right before the root's session_end when the run took at least
 * `afterSeconds` (so it is the run's last word before the result, in the transcript and the stream).
 */
export function announcingLongRuns(
  emit: EmitFn,
  notify: Notify,
  afterSeconds = DEFAULT_NOTIFY_AFTER_SECONDS,
  now: () => number = Date.now,
): EmitFn {
  const started = now();
  return (event: AgentEvent) => {
    if (event.kind === "session_end" && event.depth === 0) {
      const seconds = (now() - started) / 1000;
      if (seconds >= afterSeconds)
        notify("idle_prompt", `agent finished (${event.data.status}) after ${Math.round(seconds)} s`);
    }
    emit(event);
  };
}
