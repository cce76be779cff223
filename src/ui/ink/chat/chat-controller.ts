import type { ChatInput, Choice } from "../../chat-types.ts";

/**
 * Whether the chat waits for input, outside React (like UiStore): the CLI asks for the next input, the
 * input box answers. Components read it with useSyncExternalStore.
 *
 * While a turn runs the box stays: what is typed there is kept (`draft`), and a message sent there is
 * queued (`queued`) and handed over as the next input as soon as the turn ends, as Claude Code and Codex
 * queue a message typed during a turn. Interrupting the turn puts a queued message back in the box.
 */
export class ChatController {
  /** Earlier inputs (a continued session's, then this chat's), for Up/Down. */
  readonly history: string[];
  /** Counts the input boxes: a new one (fresh state) for each request for input, queue and unqueue. */
  round = 0;
  /** Text typed but not sent, carried from one box to the next (the turn's box to the waiting one). */
  draft = "";
  private queuedText: string | undefined;
  private ended = false;
  private choosing: { choice: Choice; resolve: (index: number | undefined) => void } | undefined;
  private waiting: ((input: ChatInput) => void) | undefined;
  private readonly listeners = new Set<() => void>();

  constructor(earlier: readonly string[] = []) {
    this.history = [...earlier];
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** True while the input box waits for the next message (no turn runs). */
  readonly isWaiting = (): boolean => this.waiting !== undefined;

  /** True once the chat was told to quit: the view's last frame shows no input box and no turn's keys. */
  readonly isEnded = (): boolean => this.ended;

  /** The message sent while the turn runs, waiting for the turn's end (undefined: none). */
  readonly queued = (): string | undefined => this.queuedText;

  /** The list shown in place of the input box (`/rewind`), if any. */
  readonly choice = (): Choice | undefined => this.choosing?.choice;

  /** Shows a list in place of the input box; resolves with the chosen index, undefined on Esc. */
  choose(choice: Choice): Promise<number | undefined> {
    return new Promise((resolve) => {
      this.choosing = { choice, resolve };
      this.notify();
    });
  }

  /** The list's answer. */
  chosen(index: number | undefined): void {
    const choosing = this.choosing;
    this.choosing = undefined;
    this.round += 1;
    this.notify();
    choosing?.resolve(index);
  }

  /** Shows the input box; resolves with what the user sends (at once with a queued message). */
  next(): Promise<ChatInput> {
    this.round += 1;
    const queued = this.queuedText;
    if (queued !== undefined) {
      this.queuedText = undefined;
      this.notify();
      return Promise.resolve({ kind: "message", text: queued });
    }
    return new Promise((resolve) => {
      this.waiting = resolve;
      this.notify();
    });
  }

  /** The input box's answer (also used to quit when the view closes). */
  answer(input: ChatInput): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    if (input.kind === "quit") this.ended = true;
    this.draft = "";
    this.notify();
    waiting?.(input);
  }

  /** A message sent while a turn runs: the next input once the turn ends. */
  queue(text: string): void {
    this.queuedText = text;
    this.draft = "";
    this.round += 1;
    this.notify();
  }

  /** The turn was interrupted: a queued message goes back into the box instead of being sent. */
  unqueue(): void {
    if (this.queuedText === undefined) return;
    this.draft = this.queuedText;
    this.queuedText = undefined;
    this.round += 1;
    this.notify();
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }
}
