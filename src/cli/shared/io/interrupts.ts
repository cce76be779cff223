/**
 * Ctrl-C, SIGTERM and SIGHUP for a run: the first signal aborts the run cleanly (the loop closes open tool
 * calls, exec kills its process groups, the transcript gets its last events, the result is written); a
 * second one forces exit 130. SIGHUP (a closed terminal or SSH session) is handled like SIGTERM, but the
 * run exits 129 (128 + SIGHUP) so a caller can tell a hang-up from an interrupt.
 */
export interface InterruptHandle {
  readonly signal: AbortSignal;
  /** True once a signal arrived. */
  readonly interrupted: boolean;
  /** The first signal that arrived, if any. */
  readonly by: NodeJS.Signals | undefined;
  dispose(): void;
}

/** The signals that end a run. */
const RUN_SIGNALS: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

export function handleInterrupts(options: { onFirst: () => void; onForce: () => void }): InterruptHandle {
  const controller = new AbortController();
  let count = 0;
  let by: NodeJS.Signals | undefined;
  const onSignal = (name: NodeJS.Signals) => {
    count += 1;
    if (count === 1) {
      by = name;
      options.onFirst();
      controller.abort(new Error(`interrupted by ${name}`));
      return;
    }
    options.onForce();
  };
  for (const name of RUN_SIGNALS) process.on(name, onSignal);
  return {
    signal: controller.signal,
    get interrupted() {
      return count > 0;
    },
    get by() {
      return by;
    },
    dispose() {
      for (const name of RUN_SIGNALS) process.off(name, onSignal);
    },
  };
}
