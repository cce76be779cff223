/**
 * A transcript read for rewinding (docs/rewind.md): the user messages of the conversation as it stands
 * (a conversation rewind drops the later ones, its undo brings them back), the file changes recorded after
 * any point, and the last rewind (which `agent rewind --undo` reverses). Built from the structured
 * `session_start`, `checkpoint` and `rewind` records only, never from message text.
 */

import type { FileChange, RewindData, SkippedPath } from "../kernel/run-events/checkpoint-records.ts";
import type { AgentEvent } from "../kernel/run-events/events.ts";

/** One user message of the conversation: where its run starts in the transcript. */
export interface UserTurn {
  /** 1 for the first message. */
  index: number;
  /** Position of its root `session_start` among the transcript's events. */
  position: number;
  goal: string;
  time: number;
}

/** The last rewind, when nothing ran after it (so it can be undone). */
export interface UndoableRewind {
  position: number;
  data: RewindData;
}

/** What a rewind needs to know about a transcript. */
export interface RewindView {
  /** The conversation's user messages, first to last. */
  turns: UserTurn[];
  /** Every file change recorded after `position` (checkpoints of every agent, and rewinds), in order,
   * and the changed paths that were not kept. */
  changesAfter(position: number): { changes: FileChange[]; skipped: SkippedPath[] };
  undoable?: UndoableRewind;
}

/** Reads the rewind view of a transcript's events. */
export function rewindView(events: readonly AgentEvent[]): RewindView {
  let turns: UserTurn[] = [];
  // The conversations a conversation rewind replaced, for its undo.
  const replaced: UserTurn[][] = [];
  let undoable: UndoableRewind | undefined;
  events.forEach((event, position) => {
    if (event.depth !== 0) return;
    if (event.kind === "session_start") {
      turns.push({ index: turns.length + 1, position, goal: event.data.goal, time: event.time });
      undoable = undefined;
    } else if (event.kind === "rewind") {
      const data = event.data;
      if (data.conversation && data.undo) turns = replaced.pop() ?? turns;
      else if (data.conversation) {
        replaced.push(turns);
        turns = turns.slice(0, Math.max(0, data.to - 1));
      }
      undoable = data.undo ? undefined : { position, data };
    }
  });
  return {
    turns,
    changesAfter(after) {
      const changes: FileChange[] = [];
      const skipped: SkippedPath[] = [];
      events.forEach((event, position) => {
        if (position <= after) return;
        if (event.kind === "checkpoint") {
          changes.push(...event.data.files);
          skipped.push(...(event.data.skipped ?? []));
        } else if (event.kind === "rewind" && event.depth === 0) changes.push(...event.data.files);
      });
      return { changes, skipped };
    },
    ...(undoable ? { undoable } : {}),
  };
}
