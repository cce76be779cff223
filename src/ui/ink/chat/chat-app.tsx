import { Box, Text, useWindowSize } from "ink";
import { useSyncExternalStore } from "react";
import type { InterruptKeyName } from "../../renderer-types.ts";
import type { ChatCommand } from "../../slash-commands.ts";
import type { InkApprover } from "../prompts/ink-approver.ts";
import type { UiStore } from "../state/store.ts";
import { InterruptKey } from "../views/interrupt-key.tsx";
import { LiveArea, useNow } from "../views/live-area.tsx";
import { StatusLine } from "../views/status-line.tsx";
import { TranscriptView } from "../views/transcript-view.tsx";
import type { ChatController } from "./chat-controller.ts";
import { ChatInput } from "./chat-input.tsx";
import { ChoiceList } from "./choice-list.tsx";

/** Props of {@link ChatApp}. */
export interface ChatAppProps {
  store: UiStore;
  chat: ChatController;
  approver: InkApprover;
  colors: boolean;
  showCost: boolean;
  /** Esc or Ctrl-C while a turn runs (Ctrl-C at its approval prompt too; Esc there is "no"). */
  onInterrupt: (key?: InterruptKeyName) => void;
  /** The `/` commands the input box lists as the user types. */
  commands?: readonly ChatCommand[];
}

/**
 * The chat view: every turn's finished items in <Static>, then either the input box, or the running turn
 * (approval prompt, live area) with the box below it for typing ahead (a message sent there is queued for
 * the turn's end), and the status line with the session's model, tokens and cost.
 */
export function ChatApp({
  store,
  chat,
  approver,
  colors,
  showCost,
  onInterrupt,
  commands = [],
}: ChatAppProps) {
  const state = useSyncExternalStore(store.subscribe, store.getSnapshot);
  const waiting = useSyncExternalStore(chat.subscribe, chat.isWaiting);
  const queued = useSyncExternalStore(chat.subscribe, chat.queued);
  const ended = useSyncExternalStore(chat.subscribe, chat.isEnded);
  const choice = useSyncExternalStore(chat.subscribe, chat.choice);
  const { columns } = useWindowSize();
  const now = useNow(100, !waiting);
  const asking = state.approvals.length > 0 || state.elicitations.length > 0;
  // Interrupting the turn also takes back a message queued for its end (it goes back into the box).
  const interrupt = (key?: InterruptKeyName): void => {
    chat.unqueue();
    onInterrupt(key);
  };
  const box = (busy: boolean) => (
    <ChatInput
      // A fresh box (history position reset, the draft carried over) for every message.
      key={`${busy ? "busy" : "input"}-${chat.round}`}
      colors={colors}
      history={chat.history}
      commands={commands}
      columns={columns}
      busy={busy}
      initialText={chat.draft}
      onDraft={(text) => {
        chat.draft = text;
      }}
      onInput={(input) => (busy && input.kind === "message" ? chat.queue(input.text) : chat.answer(input))}
    />
  );

  return (
    <Box flexDirection="column">
      <TranscriptView
        store={store}
        state={state}
        approver={approver}
        colors={colors}
        onInterrupt={interrupt}
      />
      {ended ? null : choice !== undefined ? (
        <ChoiceList
          key={`choice-${chat.round}`}
          choice={choice}
          colors={colors}
          columns={columns}
          onChoose={(index) => chat.chosen(index)}
        />
      ) : waiting ? (
        box(false)
      ) : (
        <>
          {asking ? null : <InterruptKey onInterrupt={interrupt} />}
          <LiveArea agents={state.agents} colors={colors} columns={columns} now={now} />
          {/* While an approval prompt or a form asks, its keys are its own; the draft waits in `chat`. */}
          {asking ? null : queued !== undefined ? <QueuedLine text={queued} /> : box(true)}
        </>
      )}
      <StatusLine
        model={state.model}
        usage={state.usage}
        costUsd={state.costUsd}
        showCost={showCost}
        {...(state.startedAt === undefined ? {} : { elapsedMs: now - state.startedAt })}
      />
    </Box>
  );
}

/** A message sent during the turn, waiting for its end. */
function QueuedLine({ text }: { text: string }) {
  return (
    <Text dimColor>
      {`⏎ queued: ${text.split("\n")[0]}${text.includes("\n") ? " …" : ""} (sent when this turn ends; Esc interrupts the turn and puts it back)`}
    </Text>
  );
}
