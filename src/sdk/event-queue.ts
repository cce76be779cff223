import type { AgentEvent } from "../kernel/index.ts";

/**
 * Fans a session's events out to async iterators: each iterator sees the events pushed after it was
 * opened, until the root's session_end (inclusive), then ends. Nothing is kept once every reader has it.
 */
export class EventQueue {
  private readonly readers = new Set<Reader>();

  push(event: AgentEvent): void {
    for (const reader of this.readers) {
      reader.push(event);
      if (event.kind === "session_end" && event.depth === 0) this.readers.delete(reader);
    }
  }

  iterate(): AsyncIterableIterator<AgentEvent> {
    const reader = new Reader(() => this.readers.delete(reader));
    this.readers.add(reader);
    return reader;
  }
}

class Reader implements AsyncIterableIterator<AgentEvent> {
  private readonly buffered: AgentEvent[] = [];
  private waiting: ((result: IteratorResult<AgentEvent>) => void) | undefined;
  private ended = false;

  constructor(private readonly detach: () => void) {}

  push(event: AgentEvent): void {
    if (this.ended) return;
    if (event.kind === "session_end" && event.depth === 0) this.ended = true;
    const waiting = this.waiting;
    this.waiting = undefined;
    if (waiting) waiting({ value: event, done: false });
    else this.buffered.push(event);
  }

  next(): Promise<IteratorResult<AgentEvent>> {
    const event = this.buffered.shift();
    if (event) return Promise.resolve({ value: event, done: false });
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => {
      this.waiting = resolve;
    });
  }

  return(): Promise<IteratorResult<AgentEvent>> {
    this.ended = true;
    this.buffered.length = 0;
    this.detach();
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.({ value: undefined, done: true });
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<AgentEvent> {
    return this;
  }
}
