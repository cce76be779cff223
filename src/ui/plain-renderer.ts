import type { AgentEvent } from "../kernel/run-events/events.ts";
import { terminalSafe } from "../kernel/text/terminal-text.ts";
import { ProgressLines } from "./progress-lines.ts";
import type { Renderer, TextSink } from "./renderer-types.ts";
import type { FinishedRun } from "./result.ts";
import { writeAndFlush } from "./sink.ts";

/** Options for {@link PlainRenderer}. */
export interface PlainRendererOptions {
  stdout: TextSink;
  stderr: TextSink;
  /** ANSI colors on stderr: only when stderr is a TTY and NO_COLOR is unset (the chooser decides). */
  colors: boolean;
  /** stdout is a terminal: the answer is made terminal-safe; piped, it is the model's bytes exactly. */
  stdoutIsTTY?: boolean;
}

/**
 * Headless text output: progress lines on stderr, and the final answer alone on stdout, so
 * `answer=$(agent run ...)` captures exactly the answer. Never touches the terminal mode.
 * On a terminal stdout the answer loses its control sequences (see kernel/text/terminal-text.ts).
 */
export class PlainRenderer implements Renderer {
  readonly kind = "plain" as const;
  private readonly progress: ProgressLines;

  constructor(private readonly options: PlainRendererOptions) {
    this.progress = new ProgressLines({ stderr: options.stderr, colors: options.colors, level: "full" });
  }

  onEvent(event: AgentEvent): void {
    this.progress.onEvent(event);
  }

  async finish(run: FinishedRun): Promise<void> {
    this.progress.finish(run);
    const answer = this.options.stdoutIsTTY ? terminalSafe(run.answer) : run.answer;
    if (answer !== "") {
      await writeAndFlush(this.options.stdout, answer.endsWith("\n") ? answer : `${answer}\n`);
    }
  }

  dispose(): void {}
}
