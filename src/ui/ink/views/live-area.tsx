import { Box, Text } from "ink";
import { useEffect, useState } from "react";
import { TAIL_LINES } from "../../../kernel/text/output-tail.ts";
import { agentLabel, formatDuration, oneLine } from "../../format.ts";
import { renderMarkdownWhenLoaded } from "../history/markdown-loader.ts";
import type { ActiveAgent, RunningTool } from "../state/state.ts";
import { fit, tone } from "../theme.ts";

const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/** Re-renders its caller every `ms` while `running`, and returns the current time. */
export function useNow(ms: number, running: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(timer);
  }, [ms, running]);
  return now;
}

/** ` · N lines` once a running command printed something. */
function outputCount(tool: RunningTool): string {
  const count = tool.output?.lineCount ?? 0;
  return count > 0 ? ` · ${count} ${count === 1 ? "line" : "lines"}` : "";
}

/** Props of {@link LiveArea}. */
export interface LiveAreaProps {
  agents: readonly ActiveAgent[];
  colors: boolean;
  columns: number;
  now: number;
  /** Lines of streaming text shown per agent (default 3). */
  streamLines?: number;
  /** Agents shown before "+N more" (default 8). */
  maxAgents?: number;
}

/** The bounded live region: active agents as a tree, their running tools, the tail of streaming text. */
export function LiveArea({ agents, colors, columns, now, streamLines = 3, maxAgents = 8 }: LiveAreaProps) {
  const frame = SPINNER[Math.floor(now / 100) % SPINNER.length];
  const shown = agents.slice(0, maxAgents);
  // Two agents of one name on screen at once are told apart by their index (`code-reader #1`, `#2`).
  const names = new Map<string, number>();
  for (const a of agents) names.set(a.name, (names.get(a.name) ?? 0) + 1);
  return (
    <Box flexDirection="column">
      {shown.map((agent) => {
        const indent = agent.depth * 2;
        const width = columns - indent - 4;
        const tail = (agent.streamTail === "" ? "" : renderMarkdownWhenLoaded(agent.streamTail, colors))
          .split("\n")
          .filter((line) => line.trim() !== "")
          .slice(-streamLines);
        // Reasoning is labelled, as Claude Code's "Thinking…": it is progress, not the answer.
        if (agent.thinking === true && tail.length > 0) tail[0] = `thinking: ${tail[0]}`;
        return (
          <Box key={agent.id} flexDirection="column" marginLeft={indent}>
            <Text>
              <Text color={tone(colors, "cyan")}>{frame}</Text>{" "}
              <Text bold>{agentLabel(agent.id, agent.name, (names.get(agent.name) ?? 0) > 1)}</Text>{" "}
              {agent.goal !== undefined ? <Text dimColor>{`${fit(oneLine(agent.goal), 50)} · `}</Text> : null}
              <Text dimColor>{formatDuration(now - agent.startedAt)}</Text>
              {agent.waitingSince !== undefined && agent.tools.length === 0 ? (
                <Text
                  dimColor
                >{` · waiting for ${agent.model ?? "the model"} ${formatDuration(now - agent.waitingSince)}`}</Text>
              ) : null}
            </Text>
            {(agent.recent ?? []).map((line, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the last few lines, replaced as a whole
              <Text key={`r${index}`} dimColor>
                {"  "}
                {fit(line, width)}
              </Text>
            ))}
            {agent.tools.slice(0, 3).map((tool) => (
              <Box key={tool.id} flexDirection="column">
                <Text dimColor>
                  {"  "}
                  {fit(
                    `${tool.tool} ${tool.description} (${toolClock(tool, now)})${outputCount(tool)}`,
                    width,
                  )}
                </Text>
                {(tool.output?.lines ?? []).slice(-TAIL_LINES).map((line, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: a tail of plain lines, replaced as a whole
                  <Text key={index} color={tone(colors, "gray")}>
                    {"    "}
                    {fit(line, width - 2)}
                  </Text>
                ))}
              </Box>
            ))}
            {tail.map((line, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a tail of plain lines, replaced as a whole
              <Text key={index} color={tone(colors, "gray")}>
                {"  "}
                {fit(line, width)}
              </Text>
            ))}
          </Box>
        );
      })}
      {agents.length > shown.length ? (
        <Text dimColor>+{agents.length - shown.length} more agents</Text>
      ) : null}
    </Box>
  );
}

/** A running tool's time; at its approval prompt no time, as the wait is not the tool's (docs/chat.md). */
function toolClock(tool: RunningTool, now: number): string {
  return tool.awaiting !== undefined ? "waiting for approval" : formatDuration(now - tool.startedAt);
}
