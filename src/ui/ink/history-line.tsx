import { Box, Text } from "ink";
import { memo } from "react";
import { renderMarkdown } from "./markdown.ts";
import type { HistoryItem } from "./state.ts";
import { type Tone, tone } from "./theme.ts";

/** Props of {@link HistoryLine}. */
export interface HistoryLineProps {
  item: HistoryItem;
  colors: boolean;
  /** Terminal width: markdown is wrapped to it (list items hang under their text). */
  columns?: number;
  /** Test hook: called on every render of this item (finished items must render exactly once). */
  onRender?: (item: HistoryItem) => void;
}

const MARKS: Record<HistoryItem["kind"], string> = {
  goal: "▸",
  message: "│",
  tool: "✓",
  delegate: "▸",
  return: "◂",
  approval: "✓",
  warning: "⚠",
  error: "✗",
  info: "↻",
  status: "■",
  note: "·",
};

function markTone(item: HistoryItem): Tone {
  if (item.kind === "status") return item.ok === false ? "red" : "green";
  if (item.kind === "note") return item.ok === false ? "red" : "gray";
  if (item.kind === "warning" || item.kind === "info") return "yellow";
  if (item.kind === "error" || item.ok === false) return "red";
  if (item.kind === "delegate" || item.kind === "goal") return "cyan";
  if (item.kind === "message") return "gray";
  return "green";
}

/** One finished item of the transcript, indented by agent depth (tools one level below their agent). */
export const HistoryLine = memo(function HistoryLine({ item, colors, columns, onRender }: HistoryLineProps) {
  onRender?.(item);
  const indent = item.depth * 2 + (item.kind === "tool" || item.kind === "approval" ? 2 : 0);
  const verdict = item.ok === false ? "✗" : "✓";
  const mark = item.kind === "tool" || item.kind === "approval" ? verdict : MARKS[item.kind];
  const color = tone(colors, markTone(item));
  // One Box and one Text per item (nested Texts add no layout nodes): thousands of items stay cheap.
  if (item.kind === "message") {
    return (
      <Box marginLeft={indent}>
        <Text>
          <Text bold>{item.agentName}</Text>
          {`\n${renderMarkdown(item.text, colors, columns === undefined ? undefined : columns - indent)}`}
        </Text>
      </Box>
    );
  }
  const who = item.kind === "delegate" || item.kind === "goal" ? `${item.agentName}: ` : "";
  return (
    <Box marginLeft={indent}>
      <Text>
        <Text color={color}>{mark} </Text>
        {who}
        {item.text}
        {item.detail ? <Text dimColor>{item.detail.map((line) => `\n  ${line}`).join("")}</Text> : null}
      </Text>
    </Box>
  );
});
