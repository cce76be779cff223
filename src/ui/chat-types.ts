import type { Usage } from "../kernel/conversation/usage.ts";
import type { Approver } from "../kernel/run-events/approvals.ts";
import type { AgentEvent } from "../kernel/run-events/events.ts";
import type { InterruptKeyName } from "./renderer-types.ts";
import type { FinishedRun } from "./result.ts";
import type { ChatCommand } from "./slash-commands.ts";

export type { ChatCommand } from "./slash-commands.ts";

/** The shapes of the chat's view (a leaf: chat.ts and the Ink chat both import it). */

/** What the chat's opening screen says (ink/chat/chat-welcome.tsx). */
export interface ChatWelcomeInfo {
  /** The model that answers (`provider:model`). */
  model: string;
  /** The workspace the agent works in (the home directory is shown as `~`). */
  workspace: string;
  /** The default tier when it decides the model (shown with "/model to change"). */
  tier?: string;
  /** Earlier messages when the chat continues a session (`-c`). */
  resumed?: number;
  /** The home directory, shown as `~`. */
  home?: string;
}

/** A list the user picks one entry from (the chat's `/rewind`). */
export interface Choice {
  title: string;
  options: readonly string[];
  /** The entry selected at first (default 0). */
  initial?: number;
}

/** What the user typed: a message (or slash command) to handle, or the wish to leave. */
export type ChatInput = { kind: "message"; text: string } | { kind: "quit" };

/** A chat session's terminal view. */
export interface ChatUi {
  /** Called for every event of every turn, in order. */
  onEvent(event: AgentEvent): void;
  /** Asks the user about tool calls (the approval prompt). */
  readonly approver: Approver;
  /**
   * Resolves once the view can print a turn as it stays on the screen (its markdown renderer, loaded
   * after the first frame, is there). The chat awaits it before each turn.
   */
  ready(): Promise<void>;
  /** Shows the input box and waits for the user's next input. */
  nextInput(): Promise<ChatInput>;
  /** Shows the end of a turn (answer unless already shown, status, tokens, cost). */
  turnEnded(run: FinishedRun): void;
  /** Shows the user's message as typed (`▸ you: TEXT`), before the turn that answers it. */
  sent(text: string): void;
  /** Shows a list in place of the input box; resolves with the chosen entry's index, or undefined on Esc. */
  choose(choice: Choice): Promise<number | undefined>;
  /** Puts text in the input box for the next message (a rewound message, to send again or edit). */
  prefill(text: string): void;
  /** Prints a line of slash-command output (`ok: false` for an error). */
  note(text: string, ok?: boolean): void;
  /** `/clear`: a cleared screen and a fresh status line (no tokens, cost or time; `model` when given). */
  reset?(model?: string): void;
  /** `/model NAME`: the status line names the model the next message runs on, before it runs. */
  modelChosen?(model: string): void;
  /** Releases the terminal. */
  close(): Promise<void>;
}

/** Options of {@link openChatUi}. */
export interface ChatUiOptions {
  colors: boolean;
  /** Prices a model call for the live status line. */
  costOf?: (model: string, usage: Usage) => number;
  /** Ctrl-C while a turn runs (or while its approval prompt waits). */
  onInterrupt: (key?: InterruptKeyName) => void;
  /** The opening screen: model, workspace and the keys; printed once when the view opens. */
  welcome?: ChatWelcomeInfo;
  /** The `/` commands (skills included) the input box lists as the user types `/`. */
  commands?: readonly ChatCommand[];
  /** The earlier conversation a continued chat (`-c`) shows as scrollback under the opening screen. */
  earlier?: readonly EarlierMessage[];
  /** Earlier inputs Up/Down recall before this chat's own (a continued session's messages). */
  history?: readonly string[];
}

/** A message of an earlier conversation, as the chat shows it again. */
export interface EarlierMessage {
  role: "user" | "assistant";
  text: string;
}
