/**
 * What eval started and must not outlive it: a set of running things, each stopped by `stop` if the
 * process exits while it still runs (a second signal's forced exit included). Used for the tasks' `agent
 * run` processes and for the checks' process groups.
 */
export interface KillOnExit<T> {
  add(item: T): void;
  delete(item: T): void;
}

export function killOnExit<T>(stop: (item: T) => void): KillOnExit<T> {
  const running = new Set<T>();
  let hooked = false;
  return {
    add(item) {
      running.add(item);
      if (hooked) return;
      hooked = true;
      process.on("exit", () => {
        for (const item of running) stop(item);
      });
    },
    delete(item) {
      running.delete(item);
    },
  };
}
