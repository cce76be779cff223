import type { AgentEvent, Message } from "../../../kernel/index.ts";
import { applyCompaction } from "./compaction.ts";
import { repairHistory } from "./history.ts";

/** What a transcript says about the root agent's conversation, enough to continue it. */
export interface ResumePoint {
  /** The root's messages in order, repaired so every tool call has a result. */
  messages: Message[];
  sessionId?: string;
  /** The root agent's spec name. */
  agentName?: string;
  /** The goal the session started with. */
  goal?: string;
  /** User messages (runs of the root) in the conversation as it stands, after any conversation rewind. */
  turns: number;
}

/**
 * Rebuilds the root's history from a transcript's `message` and `compaction` events (children's
 * messages are theirs alone; the full conversation stays in the transcript, a resume continues the
 * compacted one), so `agent run --resume ID "new goal"` can continue: pass `messages` as runAgent's `history`.
 * A `rewind` record of the conversation (docs/rewind.md) cuts the history back to what it was before that
 * user message's run; its undo puts back what it cut. The messages it cut stay in the transcript.
 */
export function resumeFrom(events: readonly AgentEvent[]): ResumePoint {
  const messages: Message[] = [];
  const point: ResumePoint = { messages, turns: 0 };
  // The history before each user message's run, and what each conversation rewind replaced (for its undo).
  let starts: Message[][] = [];
  const replaced: { messages: Message[]; starts: Message[][] }[] = [];
  for (const event of events) {
    if (event.depth !== 0) continue;
    if (event.kind === "session_start") starts.push(messages.slice());
    if (event.kind === "rewind" && event.data.conversation) {
      const back = event.data.undo ? replaced.pop() : undefined;
      if (!event.data.undo) replaced.push({ messages: messages.slice(), starts });
      const kept = back?.messages ?? starts[event.data.to - 1] ?? messages.slice();
      messages.splice(0, messages.length, ...kept);
      starts = back?.starts ?? starts.slice(0, Math.max(0, event.data.to - 1));
    }
    if (event.kind === "message") messages.push(event.data.message);
    else if (event.kind === "compaction") {
      // Replay the compaction the run made: the same summary, the same kept tail.
      const compacted = applyCompaction(messages, event.data.summary, event.data.kept);
      messages.splice(0, messages.length, ...compacted);
    } else if (event.kind === "session_start" && point.sessionId === undefined) {
      point.sessionId = event.data.sessionId;
      point.agentName = event.data.agentName;
      point.goal = event.data.goal;
    }
  }
  point.messages = repairHistory(messages);
  point.turns = starts.length;
  return point;
}
