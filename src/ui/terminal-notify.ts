/**
 * Telling the terminal a run needs the user: OSC 9 (`ESC ] 9 ; message BEL`, the desktop notification
 * iTerm2 introduced and WezTerm, Ghostty, kitty and Warp show) or, where OSC 9 is not understood, the bell
 * (`BEL`), which every terminal handles (a sound, a flash, a marked tab). `auto` decides as Codex does
 * (codex-rs/tui/src/notifications/mod.rs `supports_osc9`): not in Windows Terminal (WT_SESSION); OSC 9 for
 * TERM_PROGRAM WezTerm, WarpTerminal or ghostty, for iTerm2 (ITERM_SESSION_ID), and for TERM xterm-kitty,
 * wezterm or wezterm-mux; the bell otherwise. Both are zero-width: written between two frames of the Ink
 * view, they move no cursor and change no line of it.
 */
import type { NotifyMethod } from "../kernel/run-events/notifications.ts";
import { terminalLine } from "../kernel/text/terminal-text.ts";

/** The longest message sent in OSC 9 (a notification banner shows a line or two). */
const MAX_MESSAGE_CHARS = 200;

/** What `setting` comes to in this environment. */
export function notifyMethodFor(
  setting: NotifyMethod,
  env: Record<string, string | undefined>,
): "osc9" | "bell" | "off" {
  if (setting !== "auto") return setting;
  if (env.WT_SESSION !== undefined) return "bell";
  if (["WezTerm", "WarpTerminal", "ghostty"].includes(env.TERM_PROGRAM ?? "")) return "osc9";
  if (env.ITERM_SESSION_ID !== undefined) return "osc9";
  if (["xterm-kitty", "wezterm", "wezterm-mux"].includes(env.TERM ?? "")) return "osc9";
  return "bell";
}

/** The bytes that notify: OSC 9 with the message on one line (no control characters), or the bell. */
export function notificationSequence(method: "osc9" | "bell", message: string): string {
  if (method === "bell") return "\x07";
  const line = terminalLine(message).slice(0, MAX_MESSAGE_CHARS);
  return `\x1b]9;${line}\x07`;
}

/** A notifier writing to the terminal's stdout, or undefined when notifications are off. */
export function terminalNotifier(
  setting: NotifyMethod,
  env: Record<string, string | undefined>,
  stdout: { write(chunk: string): unknown },
): ((message: string) => void) | undefined {
  const method = notifyMethodFor(setting, env);
  if (method === "off") return undefined;
  return (message) => {
    stdout.write(notificationSequence(method, message));
  };
}
