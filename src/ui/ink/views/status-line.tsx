import { Text } from "ink";
import { totalTokens, type Usage } from "../../../kernel/conversation/usage.ts";
import { formatCost, formatDuration, formatTokens } from "../../format.ts";

/** Props of {@link StatusLine}. */
export interface StatusLineProps {
  model: string;
  usage: Usage;
  costUsd: number;
  /** Shown only when a pricing function is known or the run has finished. */
  showCost: boolean;
  /** Undefined between a chat's turns: nothing runs, so no time is shown (not a stale `0ms`). */
  elapsedMs?: number;
}

/** One line: model · tokens · cost · elapsed. */
export function StatusLine({ model, usage, costUsd, showCost, elapsedMs }: StatusLineProps) {
  const parts = [model || "…", `${formatTokens(totalTokens(usage))} tokens`];
  if (showCost) parts.push(formatCost(costUsd));
  if (elapsedMs !== undefined) parts.push(formatDuration(elapsedMs));
  return <Text dimColor>{parts.join(" · ")}</Text>;
}
