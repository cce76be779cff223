/**
 * The transcript of a session that is not kept (`agent run --no-session-persistence`): it has an id, so the
 * run's result names it, but nothing is written anywhere, so there is nothing to continue or list later.
 */
import type { Transcript } from "./transcript.ts";

export function unsavedTranscript(id: string): Transcript {
  return {
    id,
    path: "",
    repairedTornLine: false,
    append() {},
    close() {},
  };
}
