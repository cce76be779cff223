import type { ChatInput } from "../chat-types.ts";

/**
 * Whether the chat waits for input, outside React (like UiStore): the CLI asks for the next input, the
 * input box answers. Components read it with useSyncExternalStore.
 */
export class ChatController {
  /** Earlier inputs (a continued session's, then this chat's), for Up/Down. */
  readonly history: string[];
  /** Counts the requests for input: a new input box for each. */
  round = 0;
  private waiting: ((input: ChatInput) => void) | undefined;
  private readonly listeners = new Set<() => void>();

  constructor(earlier: readonly string[] = []) {
    this.history = [...earlier];
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** True while the input box is shown. */
  readonly isWaiting = (): boolean => this.waiting !== undefined;

  /** Shows the input box; resolves with what the user sends. */
  next(): Promise<ChatInput> {
    return new Promise((resolve) => {
      this.round += 1;
      this.waiting = resolve;
      this.notify();
    });
  }

  /** The input box's answer (also used to quit when the view closes). */
  answer(input: ChatInput): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    this.notify();
    waiting?.(input);
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }
}
