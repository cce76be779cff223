/**
 * A reader that goes away (`agent run --output stream-json | head -1`, `agent helper … | true`) closes
 * our stdout or stderr pipe; the next write fails with EPIPE as an `error` event on the stream. Without
 * a listener the runtime prints it with a stack trace. Like other command-line tools we stop writing to
 * a closed pipe and say nothing (there is nobody left to read it); the run still ends with its own exit
 * code and its transcript. Any other stream error is still raised.
 */
export function ignoreClosedPipes(
  streams: readonly NodeJS.WriteStream[] = [process.stdout, process.stderr],
): void {
  for (const stream of streams) {
    stream.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE") throw error;
    });
  }
}
