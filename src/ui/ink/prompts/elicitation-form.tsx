import { Box, Text } from "ink";
import { useRef, useState } from "react";
import {
  draftValue,
  type ElicitationQuestion,
  type FieldDraft,
  type FormField,
  initialDrafts,
} from "../../../kernel/run-events/elicitation.ts";
import { terminalLine } from "../../../kernel/text/terminal-text.ts";
import type { InterruptKeyName } from "../../renderer-types.ts";
import { tone } from "../theme.ts";
import { useKeys } from "../views/use-keys.ts";

/** What the form answers: the drafts in field order, or a decline. */
export type FormAnswer = { action: "accept"; drafts: FieldDraft[] } | { action: "decline" };

/** Props of {@link ElicitationForm}. */
export interface ElicitationFormProps {
  question: ElicitationQuestion;
  colors: boolean;
  /** Called once with the user's answer. */
  onAnswer: (answer: FormAnswer) => void;
  /** Ctrl-C while the form holds raw mode: interrupts the run, which cancels the form. */
  onInterrupt: (key?: InterruptKeyName) => void;
  /** Questions waiting behind this one. */
  queued?: number;
}

/**
 * An MCP server's form (elicitation), compact: the server's name and message, every field with its value
 * pre-filled from the schema default (SEP-1034), one field focused. Keys: type to edit text and numbers,
 * Space toggles a boolean or a choice, ←/→ pick a choice, ↑/↓ (or Tab) move, Enter checks the field and
 * goes to the next, Enter on the last field accepts the form; Esc declines (as Esc says no in the
 * approval box); Ctrl-C interrupts the run, and the server gets `cancel`.
 */
export function ElicitationForm({
  question,
  colors,
  onAnswer,
  onInterrupt,
  queued = 0,
}: ElicitationFormProps) {
  const { fields } = question;
  const start = initialDrafts(fields);
  const drafts = useRef<FieldDraft[]>(fields.map((f) => start[f.name] as FieldDraft));
  const focus = useRef(0);
  const cursor = useRef(0);
  const done = useRef(false);
  const [view, setView] = useState({ drafts: drafts.current, focus: 0, cursor: 0, error: "" });

  const show = (error = ""): void =>
    setView({ drafts: [...drafts.current], focus: focus.current, cursor: cursor.current, error });
  const answer = (result: FormAnswer): void => {
    if (done.current) return;
    done.current = true;
    onAnswer(result);
  };
  const moveTo = (index: number): void => {
    focus.current = Math.max(0, Math.min(fields.length - 1, index));
    cursor.current = 0;
  };
  const errorAt = (index: number): string | undefined => {
    const checked = draftValue(fields[index] as FormField, drafts.current[index]);
    return "error" in checked ? checked.error : undefined;
  };
  const enter = (): void => {
    const error = errorAt(focus.current);
    if (error !== undefined) {
      show(error);
      return;
    }
    if (focus.current < fields.length - 1) {
      moveTo(focus.current + 1);
      show();
      return;
    }
    const firstBad = fields.findIndex((_, i) => errorAt(i) !== undefined);
    if (firstBad === -1) {
      answer({ action: "accept", drafts: [...drafts.current] });
      return;
    }
    moveTo(firstBad);
    show(errorAt(firstBad));
  };
  const edit = (change: (draft: FieldDraft, field: FormField) => FieldDraft): void => {
    const index = focus.current;
    drafts.current[index] = change(drafts.current[index] as FieldDraft, fields[index] as FormField);
    show();
  };

  useKeys((input, key) => {
    if (key.ctrl && input === "c") return onInterrupt("ctrl-c");
    if (key.escape) return answer({ action: "decline" });
    if (fields.length === 0) {
      if (key.return) answer({ action: "accept", drafts: [] });
      return;
    }
    const field = fields[focus.current] as FormField;
    // ↑ or Shift-Tab moves up, ↓ or Tab down.
    const move = key.upArrow || (key.tab && key.shift) ? -1 : key.downArrow || key.tab ? 1 : 0;
    if (move !== 0) {
      moveTo(focus.current + move);
      return show();
    }
    if (key.return) return enter();
    if (field.kind === "boolean") {
      if (input === " ") edit((draft) => draft !== true);
      return;
    }
    if (field.kind === "choice") {
      const step = key.rightArrow || input === " " ? 1 : key.leftArrow ? -1 : 0;
      if (step !== 0) edit((draft) => cycle(field.options, String(draft), step));
      return;
    }
    if (field.kind === "choices") {
      if (key.rightArrow || key.leftArrow) {
        const count = field.options.length;
        cursor.current = (cursor.current + (key.rightArrow ? 1 : count - 1)) % Math.max(count, 1);
        show();
      } else if (input === " ") {
        const value = field.options[cursor.current]?.value;
        if (value !== undefined) edit((draft) => toggle(draft as string[], value));
      }
      return;
    }
    if (key.backspace || key.delete) return edit((draft) => [...String(draft)].slice(0, -1).join(""));
    if (key.ctrl || key.meta || input === "") return;
    // Typed quickly, "text\r" arrives as one chunk: the text, then Enter. Line breaks inside are dropped.
    const submit = /[\r\n]$/.test(input);
    edit((draft) => String(draft) + input.replace(/[\r\n]/g, ""));
    if (submit) enter();
  });

  return (
    <Box flexDirection="column" borderStyle="round" borderColor={tone(colors, "yellow")} paddingX={1}>
      <Text>
        MCP server <Text bold>{question.server}</Text> asks you to fill in a form
        {queued > 0 ? <Text dimColor> ({queued} more waiting)</Text> : null}
      </Text>
      {question.message.trim() !== "" ? <Text>{question.message}</Text> : null}
      {fields.map((field, index) => (
        <FieldLine
          // Field names are the schema's property names: unique within a form.
          key={field.name}
          field={field}
          draft={view.drafts[index] as FieldDraft}
          focused={index === view.focus}
          cursor={view.cursor}
          colors={colors}
        />
      ))}
      {view.error !== "" ? <Text color={tone(colors, "red")}>{view.error}</Text> : null}
      <Text dimColor>
        Enter next field (on the last: accept) · ↑/↓ move · Space/←/→ choose · <Text bold>Esc</Text> decline ·
        Ctrl-C cancel
      </Text>
    </Box>
  );
}

/** One field of the form as drawn: its draft, whether it has the focus, the cursor in a list of choices. */
interface FieldProps {
  field: FormField;
  draft: FieldDraft;
  focused: boolean;
  cursor: number;
  colors: boolean;
}

function FieldLine(props: FieldProps) {
  const { field, focused, colors } = props;
  return (
    <Box flexDirection="column">
      <Text>
        <Text color={tone(colors, "cyan")}>{focused ? "› " : "  "}</Text>
        <Text bold={focused}>
          {terminalLine(field.label)}
          {field.required ? "*" : ""}
          {bounds(field)}:
        </Text>{" "}
        <FieldValue {...props} />
      </Text>
      {focused && field.description ? <Text dimColor> {field.description}</Text> : null}
    </Box>
  );
}

function FieldValue({ field, draft, focused, cursor, colors }: FieldProps) {
  switch (field.kind) {
    case "boolean":
      return <Text>{draft === true ? "[x] yes" : "[ ] no"}</Text>;
    case "choice": {
      const chosen = field.options.find((o) => o.value === draft);
      return <Text>‹ {chosen ? terminalLine(chosen.label) : "(none)"} ›</Text>;
    }
    case "choices":
      return (
        <Text>
          {field.options.map((option, i) => (
            <Text key={option.value} inverse={focused && i === cursor}>
              {(draft as string[]).includes(option.value) ? "[x] " : "[ ] "}
              {terminalLine(option.label)}
              {i < field.options.length - 1 ? "  " : ""}
            </Text>
          ))}
        </Text>
      );
    default:
      return (
        <Text color={tone(colors, "green")}>
          {terminalLine(String(draft))}
          {focused ? <Text inverse> </Text> : null}
        </Text>
      );
  }
}

/** A number's range or a text's format, as a hint after the label. */
function bounds(field: FormField): string {
  if (field.kind === "number") {
    const range =
      field.minimum !== undefined && field.maximum !== undefined
        ? ` ${field.minimum}–${field.maximum}`
        : field.minimum !== undefined
          ? ` ≥ ${field.minimum}`
          : field.maximum !== undefined
            ? ` ≤ ${field.maximum}`
            : "";
    return ` (${field.integer ? "integer" : "number"}${range})`;
  }
  if (field.kind === "text" && field.format !== undefined) return ` (${field.format})`;
  return "";
}

function cycle(options: readonly { value: string }[], current: string, step: number): string {
  if (options.length === 0) return current;
  const at = options.findIndex((o) => o.value === current);
  const next =
    at === -1 ? (step > 0 ? 0 : options.length - 1) : (at + step + options.length) % options.length;
  return (options[next] as { value: string }).value;
}

function toggle(chosen: readonly string[], value: string): string[] {
  return chosen.includes(value) ? chosen.filter((v) => v !== value) : [...chosen, value];
}
