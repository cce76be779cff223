/**
 * The chat's `/rewind` (docs/rewind.md), as Claude Code's rewind menu works (code.claude.com/docs/en/
 * checkpointing): a list of the conversation's messages to go back to (and, after a rewind, its undo),
 * then what to restore: code and conversation, the conversation only, or the code only. Files come back
 * from the checkpoints (shared/session/rewind-action.ts); the `rewind` record goes to the transcript
 * through the session, so `-c` later continues from the same point; the chosen message returns to the
 * input box to send again or edit.
 */
import { resumeFrom } from "../../agents/loop/context/resume.ts";
import { type EmitFn, type Message, makeEvent } from "../../kernel/index.ts";
import { rewindView } from "../../session/rewind-view.ts";
import { readTranscript } from "../../session/sessions.ts";
import type { ChatUi } from "../../ui/chat.ts";
import { oneLine } from "../../ui/format.ts";
import { type RewindRequest, rewindSession, rewindText } from "../shared/session/rewind-action.ts";
import type { SessionSetup } from "../shared/session/session-setup.ts";
import { closeInterruptedTurn } from "./chat-history.ts";

/** What of the chat's conversation a rewind reads and changes (chat-session.ts Conversation). */
interface RewoundConversation {
  transcript: { path: string };
  messages: Message[];
  turns: number;
}

const WHAT: readonly { label: string; code: boolean; conversation: boolean }[] = [
  { label: "restore code and conversation", code: true, conversation: true },
  { label: "restore the conversation only (files stay as they are)", code: false, conversation: true },
  { label: "restore the code only (the conversation goes on)", code: true, conversation: false },
];

/** Runs `/rewind`: the two lists, the rewind, and what it did as notes. */
export async function chatRewind(context: {
  setup: SessionSetup;
  convo: RewoundConversation;
  ui: ChatUi;
  emit: EmitFn;
}): Promise<void> {
  const { setup, convo, ui, emit } = context;
  const view = rewindView(readTranscript(convo.transcript.path).events);
  if (view.turns.length === 0 && view.undoable === undefined) {
    ui.note("/rewind: no message to go back to yet");
    return;
  }
  const undo = view.undoable !== undefined;
  const options = [
    ...(undo ? [`undo the last rewind (to message ${view.undoable?.data.to})`] : []),
    ...view.turns.map((turn) => `${turn.index}. ${oneLine(turn.goal, 100)}`),
  ];
  const picked = await ui.choose({
    title: "rewind to before which message? (the files and conversation as they were before it was sent)",
    options,
    initial: options.length - 1,
  });
  if (picked === undefined) return ui.note("/rewind: cancelled");
  let request: RewindRequest;
  if (undo && picked === 0) request = { code: true, conversation: true, undo: true };
  else {
    const to = picked + (undo ? 0 : 1);
    const how = await ui.choose({ title: `message ${to}: restore what?`, options: WHAT.map((w) => w.label) });
    const chosen = how === undefined ? undefined : WHAT[how];
    if (chosen === undefined) return ui.note("/rewind: cancelled");
    request = { to, code: chosen.code, conversation: chosen.conversation };
  }
  let data: Awaited<ReturnType<typeof rewindSession>>;
  try {
    data = await rewindSession(
      readTranscript(convo.transcript.path).events,
      setup.workspace,
      setup.env,
      request,
    );
  } catch (error) {
    ui.note(`/rewind: ${(error as Error).message}`, false);
    return;
  }
  emit(makeEvent(setup.who, "rewind", data));
  if (data.conversation) {
    // The conversation as `-c` would rebuild it from the transcript, now holding the rewind record.
    const point = resumeFrom(readTranscript(convo.transcript.path).events);
    convo.messages = point.messages;
    convo.turns = point.turns;
    closeInterruptedTurn(convo.messages);
    const goal = request.undo ? undefined : view.turns[data.to - 1]?.goal;
    if (goal !== undefined) ui.prefill(goal);
  }
  const lines = rewindText(data, "/rewind, then “undo the last rewind”");
  for (const line of lines) ui.note(line, !line.includes("not restored"));
}
