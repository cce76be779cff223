/**
 * Notifications: a run tells the user it needs them (docs/configuration.md "Notifications"). The types
 * follow Claude Code's Notification hook (https://code.claude.com/docs/en/hooks#notification: the input
 * has `message` and `notification_type`, whose matcher values include `permission_prompt`, `idle_prompt`
 * and `elicitation_dialog`); the terminal methods follow Codex's `tui.notification_method`
 * (`auto`, `osc9`, `bel`: codex-rs/tui/src/notifications/mod.rs), with `off` added.
 */

/** Why the user is told: an approval prompt waits, an MCP server's form waits, a long run has ended. */
export type NotificationType = "permission_prompt" | "elicitation_dialog" | "idle_prompt";

/** How the terminal is told: `auto` picks OSC 9 where the terminal shows it, else the bell. */
export const NOTIFY_METHODS = ["auto", "osc9", "bell", "off"] as const;
export type NotifyMethod = (typeof NOTIFY_METHODS)[number];

/** Seconds a run must take before its end is announced, unless config says otherwise. */
export const DEFAULT_NOTIFY_AFTER_SECONDS = 30;

/** `notifications:` of the user config. */
export interface NotificationSettings {
  terminal: NotifyMethod;
  afterSeconds: number;
}
