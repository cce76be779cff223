/**
 * Ctrl-C and SIGTERM for a run: the first signal aborts the run cleanly (the loop closes open tool calls,
 * exec kills its process groups, the transcript gets its last events); a second one forces exit 130.
 */
export interface InterruptHandle {
  readonly signal: AbortSignal;
  /** True once a signal arrived. */
  readonly interrupted: boolean;
  dispose(): void;
}

export function handleInterrupts(options: { onFirst: () => void; onForce: () => void }): InterruptHandle {
  const controller = new AbortController();
  let count = 0;
  const onSignal = (name: NodeJS.Signals) => {
    count += 1;
    if (count === 1) {
      options.onFirst();
      controller.abort(new Error(`interrupted by ${name}`));
      return;
    }
    options.onForce();
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  return {
    signal: controller.signal,
    get interrupted() {
      return count > 0;
    },
    dispose() {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
    },
  };
}
