import { Box, useInput, useWindowSize } from "ink";
import { useSyncExternalStore } from "react";
import type { InterruptKeyName } from "../renderer-types.ts";
import type { ChatCommand } from "../slash-commands.ts";
import type { ChatController } from "./chat-controller.ts";
import { ChatInput } from "./chat-input.tsx";
import type { InkApprover } from "./ink-approver.ts";
import { LiveArea, useNow } from "./live-area.tsx";
import { StatusLine } from "./status-line.tsx";
import type { UiStore } from "./store.ts";
import { TranscriptView } from "./transcript-view.tsx";

/** Props of {@link ChatApp}. */
export interface ChatAppProps {
  store: UiStore;
  chat: ChatController;
  approver: InkApprover;
  colors: boolean;
  showCost: boolean;
  /** Esc or Ctrl-C while a turn runs (and Esc at its approval prompt, after denying). */
  onInterrupt: (key?: InterruptKeyName) => void;
  /** The `/` commands the input box lists as the user types. */
  commands?: readonly ChatCommand[];
}

/**
 * The chat view: every turn's finished items in <Static>, then either the running turn (approval prompt,
 * live area) or the input box, and the status line with the session's model, tokens and cost.
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
  const { columns } = useWindowSize();
  const now = useNow(100, !waiting);
  const request = state.approvals[0];

  return (
    <Box flexDirection="column">
      <TranscriptView
        store={store}
        state={state}
        approver={approver}
        colors={colors}
        onInterrupt={onInterrupt}
      />
      {waiting ? (
        <ChatInput
          // A fresh box (empty, history position reset) for every message.
          key={chat.round}
          colors={colors}
          history={chat.history}
          commands={commands}
          columns={columns}
          onInput={(input) => chat.answer(input)}
        />
      ) : (
        <>
          {request || state.elicitations.length > 0 ? null : <InterruptKey onInterrupt={onInterrupt} />}
          <LiveArea agents={state.agents} colors={colors} columns={columns} now={now} />
        </>
      )}
      <StatusLine
        model={state.model}
        usage={state.usage}
        costUsd={state.costUsd}
        showCost={showCost}
        elapsedMs={state.startedAt === undefined ? 0 : now - state.startedAt}
      />
    </Box>
  );
}

/** Esc or Ctrl-C while a turn runs (the approval prompt handles its own). */
function InterruptKey({ onInterrupt }: { onInterrupt: (key?: InterruptKeyName) => void }) {
  useInput((input, key) => {
    if (key.escape) onInterrupt("escape");
    else if (key.ctrl && input === "c") onInterrupt("ctrl-c");
  });
  return null;
}
