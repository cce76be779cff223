import { Static, useWindowSize } from "ink";
import { useLayoutEffect } from "react";
import type { InterruptKeyName } from "../renderer-types.ts";
import { ApprovalPrompt } from "./approval-prompt.tsx";
import { ElicitationForm } from "./elicitation-form.tsx";
import { HistoryLine } from "./history-line.tsx";
import type { InkApprover } from "./ink-approver.ts";
import type { HistoryItem, UiState } from "./state.ts";
import type { UiStore } from "./store.ts";

/** Props of {@link TranscriptView}. */
export interface TranscriptViewProps {
  store: UiStore;
  state: UiState;
  approver: InkApprover;
  colors: boolean;
  onInterrupt: (key?: InterruptKeyName) => void;
  /** Test hook, see HistoryLine. */
  onHistoryRender?: (item: HistoryItem) => void;
}

/**
 * What the run view and the chat view share: finished items in append-only <Static> (printed once, then
 * never re-rendered) and the first pending approval prompt.
 */
export function TranscriptView({
  store,
  state,
  approver,
  colors,
  onInterrupt,
  onHistoryRender,
}: TranscriptViewProps) {
  // The question that came first is on screen: an approval or an MCP server's form.
  const first = state.questions[0];
  const request = state.approvals.find((r) => r.id === first);
  const question = state.elicitations.find((q) => q.id === first);
  const { columns } = useWindowSize();
  // Static prints its items during the commit; from now on new items may start a fresh generation.
  useLayoutEffect(() => {
    store.markPrinted(state.historyGeneration);
  }, [store, state.historyGeneration]);
  return (
    <>
      <Static key={state.historyGeneration} items={state.history}>
        {(item) => (
          <HistoryLine
            key={item.key}
            item={item}
            colors={colors}
            columns={columns}
            onRender={onHistoryRender}
          />
        )}
      </Static>
      {request ? (
        <ApprovalPrompt
          key={request.id}
          request={request}
          colors={colors}
          queued={state.questions.length - 1}
          onDecision={(decision) => approver.answer(request.id, decision)}
          onInterrupt={onInterrupt}
        />
      ) : null}
      {question ? (
        <ElicitationForm
          key={question.id}
          question={question}
          colors={colors}
          queued={state.questions.length - 1}
          onAnswer={(answer) => approver.answerForm(question.id, answer)}
          onInterrupt={onInterrupt}
        />
      ) : null}
    </>
  );
}
