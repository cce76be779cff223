/**
 * The `warnings` of a result object (run and helper, `-o json` and the last stream-json line): the run's
 * warning events as `{agent, code, message}`, in order, at most {@link MAX_RESULT_WARNINGS}; the rest are
 * counted in `warnings_dropped`. A CI job that reads only the result still learns that an MCP server failed
 * to start, a hook timed out or the history was compacted. Redaction and terminal safety are the result's
 * (the whole record is redacted and serialized terminal-safe where it is printed).
 */
import type { AgentEvent } from "../kernel/run-events/events.ts";

/** How many warnings a result lists; a run that warns in a loop must not grow its result without bound. */
export const MAX_RESULT_WARNINGS = 50;

/** The code of a warning event that names none. */
export const UNCODED_WARNING = "warning";

/** One warning in the result. */
export interface WarningRow {
  agent: string;
  code: string;
  message: string;
}

/** The warning fields of a result: `warnings_dropped` only when more than the cap were emitted. */
export interface WarningFields {
  warnings: WarningRow[];
  warnings_dropped?: number;
}

/** Collects a run's warnings as they happen (one per run; fed every event, or a warning by hand). */
export class WarningLog {
  private readonly rows: WarningRow[] = [];
  private dropped = 0;

  /** Keeps the event when it is a warning; every other kind is ignored. */
  onEvent(event: AgentEvent): void {
    if (event.kind !== "warning") return;
    const data = (event as AgentEvent<"warning">).data;
    this.add(event.agent, data.code ?? UNCODED_WARNING, data.message);
  }

  /** One warning that is not an event (the helper's stderr warnings). */
  add(agent: string, code: string, message: string): void {
    if (this.rows.length < MAX_RESULT_WARNINGS) this.rows.push({ agent, code, message });
    else this.dropped += 1;
  }

  fields(): WarningFields {
    return this.dropped > 0
      ? { warnings: [...this.rows], warnings_dropped: this.dropped }
      : { warnings: [...this.rows] };
  }
}
