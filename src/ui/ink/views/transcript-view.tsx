import { Static, useWindowSize } from "ink";
import { useLayoutEffect, useRef } from "react";
import type { InterruptKeyName } from "../../renderer-types.ts";
import { HistoryBatch } from "../history/history-line.tsx";
import { ApprovalPrompt } from "../prompts/approval-prompt.tsx";
import { ElicitationForm } from "../prompts/elicitation-form.tsx";
import type { InkApprover } from "../prompts/ink-approver.ts";
import type { HistoryItem, UiState } from "../state/state.ts";
import type { UiStore } from "../state/store.ts";

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
  const batches = useBatches(state.history, state.historyGeneration);
  // Static prints its items during the commit; from now on new items may start a fresh generation.
  useLayoutEffect(() => {
    store.markPrinted(state.historyGeneration);
  }, [store, state.historyGeneration]);
  // What the approval prompt and the form take alike.
  const questionProps = { colors, queued: state.questions.length - 1, onInterrupt };
  return (
    <>
      <Static key={state.historyGeneration} items={batches}>
        {(batch) => (
          <HistoryBatch
            key={batch.key}
            items={batch.items}
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
          onDecision={(decision) => approver.answer(request.id, decision)}
          {...questionProps}
        />
      ) : null}
      {question ? (
        <ElicitationForm
          key={question.id}
          question={question}
          onAnswer={(answer) => approver.answerForm(question.id, answer)}
          {...questionProps}
        />
      ) : null}
    </>
  );
}

/** Items that reached the history between two renders, printed together. */
interface Batch {
  key: number;
  items: readonly HistoryItem[];
}

/**
 * The history of the current generation as batches, append-only (what <Static> needs): the items added
 * since the last render form one new batch. A batch is printed as a few nodes (HistoryBatch), so a
 * frame that prints thousands of items costs React and Yoga a few nodes, not thousands.
 */
function useBatches(history: readonly HistoryItem[], generation: number): Batch[] {
  const ref = useRef<{ generation: number; covered: number; batches: Batch[] }>({
    generation,
    covered: 0,
    batches: [],
  });
  if (ref.current.generation !== generation) ref.current = { generation, covered: 0, batches: [] };
  const current = ref.current;
  if (history.length > current.covered) {
    const items = history.slice(current.covered);
    current.batches = [...current.batches, { key: items[0]?.key ?? 0, items }];
    current.covered = history.length;
  }
  return current.batches;
}
