/**
 * A closed stdout (the reader went away: `agent run -o stream-json | head -1`) ends the work quietly:
 * the write error (EPIPE) aborts the run through {@link StdoutPipe.signal}, no stack trace is printed,
 * and the command exits with ExitCode.brokenPipe (141, as a shell reports a process killed by SIGPIPE).
 * The watch is process-wide because stdout is; it stays installed so later writes cannot throw either.
 */
export interface StdoutPipe {
  /** Aborts when stdout is closed. */
  readonly signal: AbortSignal;
  readonly broken: boolean;
}

interface ErrorEmitter {
  on(event: "error", listener: (error: Error) => void): unknown;
}

/** Watches `stream` for write errors; any error means nothing more can be written there. */
export function watchPipe(stream: ErrorEmitter): StdoutPipe {
  const controller = new AbortController();
  stream.on("error", (error: Error) => {
    if (!controller.signal.aborted)
      controller.abort(
        new Error(`stdout closed (${(error as NodeJS.ErrnoException).code ?? error.message})`),
      );
  });
  return {
    signal: controller.signal,
    get broken() {
      return controller.signal.aborted;
    },
  };
}

let processPipe: StdoutPipe | undefined;

/** The watch on process.stdout, installed on first use. */
export function stdoutPipe(): StdoutPipe {
  processPipe ??= watchPipe(process.stdout);
  return processPipe;
}
