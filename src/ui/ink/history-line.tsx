import { Box, Text } from "ink";
import { memo } from "react";
import { ChatWelcome } from "./chat-welcome.tsx";
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
  welcome: "",
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

/** The color of a changed line of a diff: additions green, removals red. */
export function diffLineTone(line: string): Tone {
  return line.startsWith("+") ? "green" : "red";
}

/** One finished item of the transcript, indented by agent depth (tools one level below their agent). */
export const HistoryLine = memo(function HistoryLine({ item, colors, columns, onRender }: HistoryLineProps) {
  onRender?.(item);
  const indent = item.depth * 2 + (item.kind === "tool" || item.kind === "approval" ? 2 : 0);
  const verdict = item.ok === false ? "✗" : "✓";
  const mark = item.kind === "tool" || item.kind === "approval" ? verdict : MARKS[item.kind];
  const color = tone(colors, markTone(item));
  if (item.kind === "welcome" && item.welcome) return <ChatWelcome {...item.welcome} colors={colors} />;
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
        {item.diff?.lines.map((line, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: lines of a finished diff never change
          <Text key={index} color={tone(colors, diffLineTone(line))}>
            {`\n  ${line}`}
          </Text>
        ))}
        {item.diff && item.diff.more > 0 ? (
          <Text dimColor>{`\n  … ${item.diff.more} more ${item.diff.more === 1 ? "line" : "lines"}`}</Text>
        ) : null}
      </Text>
    </Box>
  );
});
