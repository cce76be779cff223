import { Box, Text } from "ink";
import { type ChatCommand, matchSlash } from "../../slash-commands.ts";
import { fit, tone } from "../theme.ts";

/** Props of {@link SlashCommandList}. */
export interface SlashCommandListProps {
  /** What the input box holds now. */
  input: string;
  commands: readonly ChatCommand[];
  colors: boolean;
  /** Terminal width (descriptions are cut to it). */
  columns: number;
  /** Commands shown before "+N more" (default 8). */
  max?: number;
}

/**
 * Under the chat input while it holds `/name`: the commands that start with what is typed, or, when none
 * does, that the command is unknown and the nearest one. Nothing for other input.
 */
export function SlashCommandList({ input, commands, colors, columns, max = 8 }: SlashCommandListProps) {
  const match = matchSlash(input, commands);
  if (match.kind === "none") return null;
  if (match.kind === "unknown") {
    const hint = match.suggestion
      ? ` · did you mean /${match.suggestion.name}?`
      : " · /help lists the commands";
    return (
      <Box paddingX={2}>
        <Text color={tone(colors, "yellow")}>{`unknown command /${match.typed}${hint}`}</Text>
      </Box>
    );
  }
  const shown = match.commands.slice(0, max);
  const width = Math.max(...shown.map((c) => c.name.length)) + 1;
  return (
    <Box flexDirection="column" paddingX={2}>
      {shown.map((command) => (
        <Text key={command.name}>
          <Text color={tone(colors, "cyan")}>{`/${command.name}`.padEnd(width + 2)}</Text>
          <Text dimColor>{fit(command.description, columns - width - 6)}</Text>
        </Text>
      ))}
      {match.commands.length > shown.length ? (
        <Text dimColor>{`+${match.commands.length - shown.length} more`}</Text>
      ) : null}
    </Box>
  );
}
