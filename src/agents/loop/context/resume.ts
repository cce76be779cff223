import type { AgentEvent, Message } from "../../../kernel/index.ts";
import type { SkillActivationRecord } from "../../spec/skills/types.ts";
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
  /** The root's skill activations as recorded when they happened (its `skill_activated` events), once per
   * skill: pass them as runAgent's `restoredSkills`. Never derived from message text. */
  skills: SkillActivationRecord[];
  /**
   * The line the user typed for each message that opened a run: its session_start's goal. It differs from
   * the message where the typed line was expanded (`/name args` sends the skill's body); a continued chat
   * shows and recalls the typed line, as `agent sessions show` does.
   */
  typed: ReadonlyMap<Message, string>;
  /** User messages (runs of the root) in the conversation as it stands, after any conversation rewind. */
  turns: number;
}

/** The conversation as it stood before one user message's run: what a conversation rewind goes back to. */
interface Start {
  messages: Message[];
  skills: Map<string, SkillActivationRecord>;
}

/**
 * Rebuilds the root's history from a transcript's `message` and `compaction` events (children's
 * messages are theirs alone; the full conversation stays in the transcript, a resume continues the
 * compacted one), so `agent run --resume ID "new goal"` can continue: pass `messages` as runAgent's `history`
 * and `skills` as its `restoredSkills`. A `rewind` record of the conversation (docs/rewind.md) cuts the
 * history, and the skills activated since, back to what they were before that user message's run; its undo
 * puts back what it cut. The messages it cut stay in the transcript.
 */
export function resumeFrom(events: readonly AgentEvent[]): ResumePoint {
  const messages: Message[] = [];
  let skills = new Map<string, SkillActivationRecord>();
  const typed = new Map<Message, string>();
  const point: ResumePoint = { messages, skills: [], typed, turns: 0 };
  // The goal of the run whose opening user message is still to come.
  let goal: string | undefined;
  // The conversation before each user message's run, and what each conversation rewind replaced (for its undo).
  let starts: Start[] = [];
  const replaced: { now: Start; starts: Start[] }[] = [];
  for (const event of events) {
    if (event.depth !== 0) continue;
    if (event.kind === "session_start") starts.push({ messages: messages.slice(), skills: new Map(skills) });
    if (event.kind === "rewind" && event.data.conversation) {
      const back = event.data.undo ? replaced.pop() : undefined;
      if (!event.data.undo)
        replaced.push({ now: { messages: messages.slice(), skills: new Map(skills) }, starts });
      const kept = back?.now ?? starts[event.data.to - 1] ?? { messages: messages.slice(), skills };
      messages.splice(0, messages.length, ...kept.messages);
      skills = new Map(kept.skills);
      starts = back?.starts ?? starts.slice(0, Math.max(0, event.data.to - 1));
    }
    if (event.kind === "message") {
      const message = event.data.message;
      messages.push(message);
      if (message.role === "user" && goal !== undefined) {
        typed.set(message, goal);
        goal = undefined;
      }
    } else if (event.kind === "compaction") {
      // Replay the compaction the run made: the same summary, the same kept tail.
      const compacted = applyCompaction(
        messages,
        event.data.summary,
        event.data.kept,
        event.data.resultLimit,
      );
      messages.splice(0, messages.length, ...compacted);
    } else if (event.kind === "skill_activated" && !skills.has(event.data.skill)) {
      skills.set(event.data.skill, { skill: event.data.skill, path: event.data.path, by: event.data.by });
    } else if (event.kind === "session_start") {
      goal = event.data.goal;
      if (point.sessionId !== undefined) continue;
      point.sessionId = event.data.sessionId;
      point.agentName = event.data.agentName;
      point.goal = event.data.goal;
    }
  }
  point.messages = repairHistory(messages);
  point.skills = [...skills.values()];
  point.turns = starts.length;
  return point;
}
