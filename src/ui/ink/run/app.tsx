import { Box, useWindowSize } from "ink";
import { useSyncExternalStore } from "react";
import type { InterruptKeyName } from "../../renderer-types.ts";
import type { InkApprover } from "../prompts/ink-approver.ts";
import type { HistoryItem } from "../state/state.ts";
import type { UiStore } from "../state/store.ts";
import { InterruptKey } from "../views/interrupt-key.tsx";
import { LiveArea, useNow } from "../views/live-area.tsx";
import { StatusLine } from "../views/status-line.tsx";
import { TranscriptView } from "../views/transcript-view.tsx";
import { Summary } from "./summary.tsx";

/** Props of {@link App}. */
export interface AppProps {
  store: UiStore;
  approver: InkApprover;
  colors: boolean;
  /** Show live cost (a pricing function is known). */
  showCost: boolean;
  onInterrupt: (key?: InterruptKeyName) => void;
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
          showError={finished.error?.message !== state.lastRootError}
        />
      ) : (
        <>
          {state.approvals.length > 0 || state.elicitations.length > 0 ? null : (
            <InterruptKey onInterrupt={onInterrupt} />
          )}
          <LiveArea agents={state.agents} colors={colors} columns={columns} now={now} />
          {/* Until the run starts nothing is known: no `… · 0 tokens · $0.0000 · 0ms` placeholder. */}
          {state.startedAt === undefined ? null : (
            <StatusLine
              model={state.model}
              usage={state.usage}
              costUsd={state.costUsd}
              showCost={showCost}
              elapsedMs={elapsedMs}
            />
          )}
        </>
      )}
    </Box>
  );
}
