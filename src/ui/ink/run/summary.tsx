import { Box, Text, useWindowSize } from "ink";
import { totalTokens } from "../../../kernel/conversation/usage.ts";
import { agentLabel, formatCost, formatDuration, formatTokens } from "../../format.ts";
import { denialLines, deniedText } from "../../progress-lines.ts";
import { type FinishedRun, worktreeLines } from "../../result.ts";
import { renderMarkdownWhenLoaded } from "../history/markdown-loader.ts";
import { tone } from "../theme.ts";

/** Props of {@link Summary}. */
export interface SummaryProps {
  run: FinishedRun;
  elapsedMs: number;
  colors: boolean;
  /** Print the answer (when the history does not already end with it). */
  showAnswer: boolean;
  /** Print the run's error (false when the history already shows it as the root's last error line). */
  showError?: boolean;
}

/** The end of a run: the answer when needed, status, then usage and cost per agent. */
export function Summary({ run, elapsedMs, colors, showAnswer, showError = true }: SummaryProps) {
  const { columns } = useWindowSize();
  const denials = run.activity?.denials ?? [];
  const ok = run.status === "success" && denials.length === 0;
  const warn = run.status === "limit" || run.status === "success";
  const color = tone(colors, ok ? "green" : warn ? "yellow" : "red");
  const denied = denials.length > 0 ? ` · ${deniedText(denials.length)}` : "";
  // A session that is not kept (--no-session-persistence) has no id worth showing.
  const session = run.sessionSaved !== false ? ` · session ${run.sessionId}` : "";
  // Sub-agents of one name are told apart by index, as in the history (`code-reader #2`).
  const names = new Map<string, number>();
  for (const report of run.usage) names.set(report.name, (names.get(report.name) ?? 0) + 1);
  return (
    <Box flexDirection="column" marginTop={1}>
      {showAnswer && run.answer.trim() !== "" ? (
        <Text>{renderMarkdownWhenLoaded(run.answer.trim(), colors, columns)}</Text>
      ) : null}
      {run.error && showError ? (
        <Text color={tone(colors, "red")}>{`✗ ${run.error.kind} error: ${run.error.message}`}</Text>
      ) : null}
      {denials.length > 0 ? <Text color={tone(colors, "red")}>{denialLines(denials)[0]}</Text> : null}
      {denials.length > 0 ? <Text>{denialLines(denials).slice(1).join("\n")}</Text> : null}
      <Text color={color} bold>
        {`■ ${run.status} (${run.finishReason}) in ${formatDuration(elapsedMs)}${denied}${session}`}
      </Text>
      {run.resumeCommand !== undefined ? <Text dimColor>{`continue: ${run.resumeCommand}`}</Text> : null}
      {run.worktree !== undefined ? <Text>{worktreeLines(run.worktree).join("\n")}</Text> : null}
      {run.usage.map((report) => (
        <Text key={report.agent}>
          {"  ".repeat(report.depth + 1)}
          {agentLabel(report.agent, report.name, (names.get(report.name) ?? 0) > 1)}{" "}
          <Text dimColor>{report.model}</Text>
          {` ${formatTokens(totalTokens(report.usage))} tokens · ${formatCost(report.costUsd)}`}
          {report.subtree.costUsd !== report.costUsd ? (
            <Text dimColor>{` (with sub-agents ${formatCost(report.subtree.costUsd)})`}</Text>
          ) : null}
        </Text>
      ))}
    </Box>
  );
}
