import { appendFile, mkdir } from "node:fs/promises";
import path from "node:path";
import { stateDir } from "../../kernel/files/paths.ts";
import { type AgentIdentity, type EmitFn, makeEvent } from "../../kernel/index.ts";

/**
 * Learn signals: how each tool result went (success, failure, stumble), emitted as events and, when
 * the spec's can_learn is set, appended as JSON lines to `$XDG_STATE_HOME/agent/learn.jsonl`.
 */

export type LearnKind = "success" | "failure" | "stumble";

export interface LearnSignal {
  signal: LearnKind;
  detail: string;
  tool?: string;
}

/** The default learn file: `$XDG_STATE_HOME/agent/learn.jsonl`. */
export function defaultLearnFile(env: Record<string, string | undefined> = process.env): string {
  return path.join(stateDir(env), "learn.jsonl");
}

/** Emits learn_signal events for one agent and persists them when learning is on. */
export class LearnRecorder {
  private pending: Promise<void> = Promise.resolve();

  constructor(
    private readonly who: AgentIdentity,
    private readonly emit: EmitFn,
    /** Where to append, or null when this agent does not learn. */
    private readonly file: string | null,
    private readonly sessionId: string | undefined,
    private readonly now: () => number,
  ) {}

  record(signal: LearnSignal): void {
    this.emit(makeEvent(this.who, "learn_signal", { ...signal }));
    const file = this.file;
    if (file === null) return;
    const line = `${JSON.stringify({
      time: new Date(this.now()).toISOString(),
      session: this.sessionId,
      agent: this.who.agent,
      name: this.who.name,
      ...signal,
    })}\n`;
    // Appends are chained so lines of one agent keep their order; failures never break the run.
    this.pending = this.pending.then(async () => {
      try {
        await mkdir(path.dirname(file), { recursive: true });
        await appendFile(file, line);
      } catch (error) {
        this.emit(
          makeEvent(this.who, "warning", {
            message: `could not write learn signal to ${file}: ${error instanceof Error ? error.message : String(error)}`,
            code: "learn_write",
          }),
        );
      }
    });
  }

  /** Waits until every signal is on disk. */
  flush(): Promise<void> {
    return this.pending;
  }
}
