/**
 * A closed stdout (the reader went away: `agent run -o stream-json | head -1`) ends the work quietly:
 * the write error (EPIPE) aborts the run through {@link StdoutPipe.signal}, no stack trace is printed,
 * and the command exits with ExitCode.brokenPipe (141, as a shell reports a process killed by SIGPIPE).
 * A closed stderr is only ignored (std-streams.ts drops what comes after): nobody is left to read it.
 */
import { stdout } from "./std-streams.ts";

export interface StdoutPipe {
  /** Aborts when stdout is closed. */
  readonly signal: AbortSignal;
  readonly broken: boolean;
}

let processPipe: StdoutPipe | undefined;

/** The watch on the process's stdout, installed on first use. */
export function stdoutPipe(): StdoutPipe {
  if (processPipe) return processPipe;
  const controller = new AbortController();
  stdout.onError((error) => {
    if (!controller.signal.aborted)
      controller.abort(
        new Error(`stdout closed (${(error as NodeJS.ErrnoException).code ?? error.message})`),
      );
  });
  processPipe = {
    signal: controller.signal,
    get broken() {
      return stdout.broken;
    },
  };
  return processPipe;
}
