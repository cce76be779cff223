import { Box, useWindowSize } from "ink";
import { useSyncExternalStore } from "react";
import type { InkApprover } from "./ink-approver.ts";
import { LiveArea, useNow } from "./live-area.tsx";
import type { HistoryItem } from "./state.ts";
import { StatusLine } from "./status-line.tsx";
import type { UiStore } from "./store.ts";
import { Summary } from "./summary.tsx";
import { TranscriptView } from "./transcript-view.tsx";

/** Props of {@link App}. */
export interface AppProps {
  store: UiStore;
  approver: InkApprover;
  colors: boolean;
  /** Show live cost (a pricing function is known). */
  showCost: boolean;
  onInterrupt: () => void;
  /** Test hook, see HistoryLine. */
  onHistoryRender?: (item: HistoryItem) => void;
}

/**
 * The TTY view: finished items in append-only <Static> (printed once, then never re-rendered), the approval
 * prompt, the live area (active agents, running tools, streaming text, spinner) and the status line; the
 * summary replaces the live part at the end.
 */
export function App({ store, approver, colors, showCost, onInterrupt, onHistoryRender }: AppProps) {
  const state = useSyncExternalStore(store.subscribe, store.getSnapshot);
  const { columns } = useWindowSize();
  const finished = state.finished;
  const now = useNow(100, finished === undefined);
  const startedAt = state.startedAt ?? now;
  const elapsedMs = (finished?.finishedAt ?? now) - startedAt;

  return (
    <Box flexDirection="column">
      <TranscriptView
        store={store}
        state={state}
        approver={approver}
        colors={colors}
        onInterrupt={onInterrupt}
        onHistoryRender={onHistoryRender}
      />
      {finished ? (
        <Summary
          run={finished}
          elapsedMs={elapsedMs}
          colors={colors}
          showAnswer={finished.answer.trim() !== state.lastRootText}
        />
      ) : (
        <>
          <LiveArea agents={state.agents} colors={colors} columns={columns} now={now} />
          <StatusLine
            model={state.model}
            usage={state.usage}
            costUsd={state.costUsd}
            showCost={showCost}
            elapsedMs={elapsedMs}
          />
        </>
      )}
    </Box>
  );
}
