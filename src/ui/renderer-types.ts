import type { Approver } from "../kernel/run-events/approvals.ts";
import type { AgentEvent } from "../kernel/run-events/events.ts";
import type { FinishedRun } from "./result.ts";

/** The renderer interface every output mode implements (a leaf: renderer.ts and each renderer import it). */

/** `--output` values. */
export type OutputMode = "text" | "json" | "stream-json";

/** Which renderer {@link selectRenderer} picks. */
export type RendererKind = "ink" | "plain" | "json" | "stream-json";

/** Where a renderer writes: anything with a Node-style `write(chunk, callback)` (process.stdout, a test sink). */
export interface TextSink {
  write(chunk: string, callback?: (error?: Error | null) => void): unknown;
}

/** Consumes a run's event stream and shows it; built by {@link chooseRenderer}. */
export interface Renderer {
  readonly kind: RendererKind;
  /** Called for every event, in order, as it happens. Never throws. */
  onEvent(event: AgentEvent): void;
  /** Shows the result, flushes output and releases the terminal. Call once, after the last event. */
  finish(run: FinishedRun): Promise<void>;
  /** The interactive approver, only for the Ink renderer on a TTY; otherwise the CLI uses `--on-ask`. */
  readonly approver?: Approver;
  /** Releases the terminal without a result (e.g. a usage error after the renderer was created). */
  dispose(): void;
}

/** The key that asked to interrupt: Esc interrupts only; a second Ctrl-C may force the way out. */
export type InterruptKeyName = "escape" | "ctrl-c";
