import { Box, Text } from "ink";
import { useRef, useState } from "react";
import type { ChatInput as ChatInputValue } from "../../chat-types.ts";
import { type ChatCommand, completeSlash } from "../../slash-commands.ts";
import { tone } from "../theme.ts";
import { useKeys } from "../views/use-keys.ts";
import { charAfter } from "./chat-input-edit.ts";
import { applyInputKey, emptyInput, type InputState } from "./chat-input-state.ts";
import { SlashCommandList } from "./slash-command-list.tsx";

/** Props of {@link ChatInput}. */
export interface ChatInputProps {
  colors: boolean;
  /** Earlier inputs of this session (kept by the caller, so they outlive this box). */
  history: string[];
  /** The `/` commands listed under the box while it holds `/name` (none: no list). */
  commands?: readonly ChatCommand[];
  /** Terminal width, for the command list. */
  columns?: number;
  /** Called once with what the user sent, or with quit. */
  onInput: (input: ChatInputValue) => void;
  /** A turn runs: Esc, Ctrl-C and Ctrl-D are the turn's keys (left to the caller), and Enter queues. */
  busy?: boolean;
  /** The text the box starts with (a draft typed in an earlier box). */
  initialText?: string;
  /** Called with the text after every change, to carry an unsent draft to the next box. */
  onDraft?: (text: string) => void;
}

/** The chat's input box; keys as chat-input-state.ts describes. */
export function ChatInput({
  colors,
  history,
  commands = [],
  columns = 80,
  onInput,
  busy = false,
  initialText = "",
  onDraft,
}: ChatInputProps) {
  const [state, setState] = useState<InputState>(() => ({
    ...emptyInput(history),
    text: initialText,
    cursor: initialText.length,
    draft: initialText,
  }));
  // The same, updated at once: several input chunks can arrive before React renders again.
  const now = useRef(state);
  const done = useRef(false);

  useKeys((input, key) => {
    if (done.current) return;
    if (busy && (key.escape || (key.ctrl && (input === "c" || input === "d")))) return;
    const before = now.current.text;
    const completed = key.tab ? completeSlash(before, commands) : undefined;
    const { state: next, outcome } =
      completed === undefined
        ? applyInputKey(now.current, input, key)
        : {
            state: {
              ...now.current,
              text: completed,
              cursor: completed.length,
              index: now.current.history.length,
              draft: completed,
            },
            outcome: undefined,
          };
    now.current = next;
    setState(next);
    if (next.text !== before) onDraft?.(next.text);
    if (outcome === undefined) return;
    done.current = true;
    if (outcome.kind === "submit") {
      history.push(outcome.text);
      onInput({ kind: "message", text: outcome.text });
    } else if (outcome.kind === "rewind") onInput({ kind: "message", text: "/rewind" });
    else onInput({ kind: "quit" });
  });

  const lines = linesWithCursor(state.text, state.cursor);
  return (
    <Box flexDirection="column">
      <Box flexDirection="column" borderStyle="round" borderColor={tone(colors, "gray")} paddingX={1}>
        {lines.map((line, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: lines have no identity but their position
          <Text key={i}>
            <Text color={tone(colors, "cyan")}>{i === 0 ? "› " : "  "}</Text>
            {line.before}
            {line.at === undefined ? null : <Text inverse>{line.at}</Text>}
            {line.after}
          </Text>
        ))}
        {state.quitArmed === true ? (
          <Text color={tone(colors, "yellow")}>Press Ctrl-C again to exit</Text>
        ) : state.rewindArmed === true ? (
          <Text color={tone(colors, "yellow")}>Press Esc again to rewind</Text>
        ) : (
          <Text dimColor>
            {busy
              ? "Enter queues the message for when this turn ends · Esc interrupts the turn"
              : "Enter send · \\ Enter or Ctrl-J newline · ↑↓ history · /help · Ctrl-C twice quits"}
          </Text>
        )}
      </Box>
      {commands.length > 0 ? (
        <SlashCommandList input={state.text} commands={commands} colors={colors} columns={columns} />
      ) : null}
    </Box>
  );
}

/** One line of the box, split around the cursor (`at`: the character under it, a space at a line's end). */
interface CursorLine {
  before: string;
  at?: string;
  after: string;
}

/** The text's lines, the cursor's line split where the cursor is. */
function linesWithCursor(text: string, cursor: number): CursorLine[] {
  let start = 0;
  return text.split("\n").map((line) => {
    const offset = cursor - start;
    start += line.length + 1;
    if (offset < 0 || offset > line.length) return { before: line, after: "" };
    const next = charAfter(line, offset);
    return { before: line.slice(0, offset), at: line.slice(offset, next) || " ", after: line.slice(next) };
  });
}
