import type { AgentEvent } from "../../../kernel/run-events/events.ts";
import { TerminalSafeStream, terminalSafeValue } from "../../../kernel/text/terminal-text.ts";
import type { FinishedRun } from "../../result.ts";
import {
  type CostFn,
  type HistoryItem,
  initialState,
  reduceBatch,
  type UiAction,
  type UiState,
} from "./state.ts";

/** History items kept to print again after a resize. */
export const REPLAY_ITEMS = 2000;

/** Options for {@link UiStore}. */
export interface UiStoreOptions {
  /** At most one flush per this many milliseconds (default 50); 0 flushes on the next macrotask. */
  flushMs?: number;
  costOf?: CostFn;
}

/**
 * Holds the UI state outside React and batches actions: events are queued and applied together at most
 * every `flushMs`, so a burst of thousands of events costs one render. Approvals flush at once.
 * Components read it with useSyncExternalStore.
 */
export class UiStore {
  private state: UiState = initialState();
  private pending: UiAction[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly listeners = new Set<() => void>();
  private printedGeneration = -1;
  private readonly flushMs: number;
  /** The latest history items (at most REPLAY_ITEMS), to print again after a resize cleared the screen. */
  private replayItems: HistoryItem[] = [];
  /** Per agent: its streamed text made terminal-safe, a sequence split across deltas held whole. */
  private readonly streams = new Map<string, TerminalSafeStream>();

  constructor(private readonly options: UiStoreOptions = {}) {
    this.flushMs = options.flushMs ?? 50;
  }

  readonly getSnapshot = (): UiState => this.state;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Queues an action (its text made terminal-safe: everything in the state reaches the screen); it shows at the next flush. */
  dispatch(action: UiAction): void {
    this.pending.push(
      action.type === "event"
        ? { type: "event", event: this.safeEvent(action.event) }
        : terminalSafeValue(action),
    );
    if (this.timer === undefined) {
      this.timer = setTimeout(() => this.flush(), this.flushMs);
      this.timer.unref?.();
    }
  }

  /** Applies queued actions now and notifies the view. */
  flush(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.length === 0) return;
    const actions = this.pending;
    this.pending = [];
    const firstNew = this.state.nextKey;
    this.state = reduceBatch(this.state, actions, {
      costOf: this.options.costOf,
      freshHistory: this.printedGeneration === this.state.historyGeneration,
    });
    this.remember(this.state.history.filter((item) => item.key >= firstNew));
    for (const listener of this.listeners) listener();
  }

  private remember(items: HistoryItem[]): void {
    if (items.length === 0) return;
    this.replayItems.push(...items);
    if (this.replayItems.length > REPLAY_ITEMS * 2) this.replayItems = this.replayItems.slice(-REPLAY_ITEMS);
  }

  /**
   * The screen was cleared (resize-guard.ts): a new history generation holding the latest items (at most
   * REPLAY_ITEMS, after a line saying how many earlier ones are not shown again) is printed again.
   */
  replay(): void {
    this.flush();
    const items = this.replayItems.slice(-REPLAY_ITEMS);
    const dropped = this.state.nextKey - items.length;
    const history: HistoryItem[] =
      dropped > 0
        ? [
            {
              key: -1,
              kind: "info",
              depth: 0,
              agentName: "",
              text: `(${dropped} earlier lines not shown again)`,
            },
            ...items,
          ]
        : items;
    this.state = { ...this.state, history, historyGeneration: this.state.historyGeneration + 1 };
    for (const listener of this.listeners) listener();
  }

  private safeEvent(event: AgentEvent): AgentEvent {
    if (event.kind !== "text_delta") {
      this.streams.delete(event.agent); // what it held was an unfinished sequence: never shown
      return terminalSafeValue(event);
    }
    let stream = this.streams.get(event.agent);
    if (stream === undefined) {
      stream = new TerminalSafeStream();
      this.streams.set(event.agent, stream);
    }
    return { ...event, data: { delta: stream.push(event.data.delta) } };
  }

  /** Called by the view once <Static> has printed a generation, so the next items start a new one. */
  /** `/clear`: the screen was cleared; a new, empty history generation (nothing is printed again). */
  clearHistory(): void {
    this.flush();
    this.replayItems = [];
    this.state = { ...this.state, history: [], historyGeneration: this.state.historyGeneration + 1 };
    for (const listener of this.listeners) listener();
  }

  markPrinted(generation: number): void {
    this.printedGeneration = Math.max(this.printedGeneration, generation);
  }

  /** Queues the result and flushes everything. */
  finish(run: FinishedRun, now = Date.now()): void {
    this.dispatch({ type: "finish", run, now });
    this.flush();
  }

  /** Drops the timer (the view is gone). */
  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
