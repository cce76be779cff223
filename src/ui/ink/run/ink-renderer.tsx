/**
 * The Ink renderer for interactive terminals. Import it only through chooseRenderer (dynamic import):
 * loading Ink costs ~140 ms and its input hooks need a TTY on stdin.
 */
import { render } from "ink";
import type { AgentEvent } from "../../../kernel/run-events/events.ts";
import type { InterruptKeyName, Renderer } from "../../renderer-types.ts";
import type { FinishedRun } from "../../result.ts";
import { loadMarkdown } from "../history/markdown-loader.ts";
import { InkApprover } from "../prompts/ink-approver.ts";
import { guardResize, inkInteractive } from "../resize-guard.ts";
import type { CostFn, HistoryItem } from "../state/state.ts";
import { UiStore } from "../state/store.ts";
import { App } from "./app.tsx";

// A run's answers can reach the history from its first events, so the markdown renderer (loaded on
// demand for the chat's sake, markdown-loader.ts) comes with this module.
await loadMarkdown();

/** Options for {@link createInkRenderer}. */
export interface InkRendererOptions {
  colors: boolean;
  costOf?: CostFn;
  /** Ctrl-C pressed while the approval prompt holds raw mode (default: raise SIGINT on this process). */
  onInterrupt?: (key?: InterruptKeyName) => void;
  flushMs?: number;
  /** Default process.stdin / stdout / stderr (tests and the benchmark pass fakes). */
  stdin?: NodeJS.ReadStream;
  stdout?: NodeJS.WriteStream;
  stderr?: NodeJS.WriteStream;
  /** Route console.* above the app (default true). */
  patchConsole?: boolean;
  onHistoryRender?: (item: HistoryItem) => void;
  /** Force Ink's interactive mode (live redraws) on or off; default: Ink's detection (TTY and not CI). */
  interactive?: boolean;
}

/** The Ink renderer plus its store and approver. */
export interface InkRenderer extends Renderer {
  readonly kind: "ink";
  readonly approver: InkApprover;
  readonly store: UiStore;
}

/** Mounts the Ink app and returns a renderer feeding it; `finish` prints the summary and unmounts. */
export function createInkRenderer(options: InkRendererOptions): InkRenderer {
  const store = new UiStore({ flushMs: options.flushMs, costOf: options.costOf });
  const approver = new InkApprover(store);
  // Each key becomes SIGINT, so the run's own handler (cli/shared/io/interrupts.ts) counts it: the first
  // interrupts, a second forces. Esc only ever interrupts: after the first signal it sends none.
  let signalled = false;
  const onInterrupt =
    options.onInterrupt ??
    ((key?: InterruptKeyName) => {
      if (key === "escape" && signalled) return;
      signalled = true;
      process.kill(process.pid, "SIGINT");
    });
  // Live frames on a terminal: a narrowing resize redraws everything (see resize-guard.ts).
  const stdout = options.stdout ?? process.stdout;
  const unguard = inkInteractive(stdout, options.interactive)
    ? guardResize(stdout, () => store.replay())
    : undefined;
  const instance = render(
    <App
      store={store}
      approver={approver}
      colors={options.colors}
      showCost={options.costOf !== undefined}
      onInterrupt={onInterrupt}
      onHistoryRender={options.onHistoryRender}
    />,
    {
      stdin: options.stdin,
      stdout: options.stdout,
      stderr: options.stderr,
      exitOnCtrlC: false,
      patchConsole: options.patchConsole ?? true,
      interactive: options.interactive,
    },
  );
  let closed = false;
  let finishing: Promise<void> | undefined;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    store.dispose();
    instance.unmount();
    await instance.waitUntilExit();
    unguard?.();
  };

  return {
    kind: "ink",
    approver,
    store,
    onEvent(event: AgentEvent) {
      if (!closed) store.dispatch({ type: "event", event });
    },
    // One finish: a second call (a forcing Ctrl-C while the run's own end is being drawn) waits for the
    // first instead of returning at once, so the process never exits before the summary is on the screen.
    finish(run: FinishedRun) {
      finishing ??= closed
        ? Promise.resolve()
        : (async () => {
            store.finish(run);
            await instance.waitUntilRenderFlush();
            await close();
          })();
      return finishing;
    },
    dispose() {
      void close();
    },
  };
}
