import { Box, Text } from "ink";
import { memo } from "react";
import { ChatWelcome } from "../chat/chat-welcome.tsx";
import type { HistoryItem } from "../state/state.ts";
import { itemIndent, itemRows, itemText } from "./history-text.ts";

export { diffLineTone } from "./history-text.ts";

/** Props of {@link HistoryLine}. */
export interface HistoryLineProps {
  item: HistoryItem;
  colors: boolean;
  /** Terminal width: markdown is wrapped to it (list items hang under their text). */
  columns?: number;
  /** Test hook: called on every render of this item (finished items must render exactly once). */
  onRender?: (item: HistoryItem) => void;
}

/** One finished item of the transcript, indented by agent depth (tools one level below their agent). */
export const HistoryLine = memo(function HistoryLine({ item, colors, columns, onRender }: HistoryLineProps) {
  onRender?.(item);
  if (item.kind === "welcome" && item.welcome) return <ChatWelcome {...item.welcome} colors={colors} />;
  const indent = itemIndent(item);
  return (
    <Box marginLeft={indent}>
      <Text>{itemText(item, colors, columns === undefined ? undefined : columns - indent)}</Text>
    </Box>
  );
});

/** Props of {@link HistoryBatch}. */
export interface HistoryBatchProps {
  items: readonly HistoryItem[];
  colors: boolean;
  columns: number;
  onRender?: (item: HistoryItem) => void;
}

/**
 * Finished items printed together (one <Static> entry): each run of text items as one <Text> of their
 * rows (history-text.ts), the chat's welcome box as its own component. Prints what a HistoryLine per item
 * prints, with a few nodes instead of several per item.
 */
export const HistoryBatch = memo(function HistoryBatch({
  items,
  colors,
  columns,
  onRender,
}: HistoryBatchProps) {
  const parts: React.ReactNode[] = [];
  let rows: string[] = [];
  const flushRows = (key: number): void => {
    if (rows.length > 0) parts.push(<Text key={`t${key}`}>{rows.join("\n")}</Text>);
    rows = [];
  };
  for (const item of items) {
    onRender?.(item);
    if (item.kind === "welcome" && item.welcome) {
      flushRows(item.key);
      parts.push(<ChatWelcome key={`w${item.key}`} {...item.welcome} colors={colors} />);
    } else rows.push(itemRows(item, colors, columns));
  }
  flushRows(-1);
  return <Box flexDirection="column">{parts}</Box>;
});
