/**
 * A list to pick one entry from, in place of the chat's input box (the chat's `/rewind`): ↑/↓ move, Enter
 * chooses, Esc cancels, as Claude Code's rewind menu lists the session's prompts to pick from
 * (code.claude.com/docs/en/checkpointing). At most `rows` entries show, the chosen one always among them.
 */
import { Box, Text } from "ink";
import { useEffect, useState } from "react";
import type { Choice } from "../../chat-types.ts";
import { fit, tone } from "../theme.ts";
import { useKeys } from "../views/use-keys.ts";

/** Props of {@link ChoiceList}. */
export interface ChoiceListProps {
  choice: Choice;
  colors: boolean;
  columns: number;
  /** The chosen entry's index, or undefined when the user pressed Esc. */
  onChoose: (index: number | undefined) => void;
  rows?: number;
}

export function ChoiceList({ choice, colors, columns, onChoose, rows = 10 }: ChoiceListProps) {
  const last = choice.options.length - 1;
  const [selected, setSelected] = useState(Math.min(Math.max(0, choice.initial ?? 0), last));
  useKeys((_input, key) => {
    if (key.upArrow) setSelected((at) => Math.max(0, at - 1));
    else if (key.downArrow) setSelected((at) => Math.min(last, at + 1));
    else if (key.return) onChoose(selected);
    else if (key.escape) onChoose(undefined);
  });
  // The key hint shows once the keys are listened to: Ink subscribes useKeys in an effect after the first
  // frame is drawn, and a key that arrives in between is lost. This effect runs after that one, so a
  // person (or a test) who waits for the hint knows every key from then on is seen.
  const [listening, setListening] = useState(false);
  useEffect(() => setListening(true), []);
  const first = Math.min(Math.max(0, selected - Math.floor(rows / 2)), Math.max(0, last + 1 - rows));
  const shown = choice.options.slice(first, first + rows);
  return (
    <Box flexDirection="column" paddingX={1}>
      <Text bold>{fit(choice.title, columns - 2)}</Text>
      {shown.map((option, offset) => {
        const index = first + offset;
        const mark = index === selected ? "❯ " : "  ";
        return (
          <Text key={`${index}-${option}`} {...(index === selected ? { color: tone(colors, "cyan") } : {})}>
            {fit(`${mark}${option}`, columns - 2)}
          </Text>
        );
      })}
      <Text dimColor>{listening ? "↑/↓ move · Enter choose · Esc cancel" : " "}</Text>
    </Box>
  );
}
