import {
  applyInputKey,
  emptyInput,
  type InputKey,
  type InputState,
} from "../../src/ui/ink/chat/chat-input-state.ts";

/** Feeds keys to the chat's pure input state; returns the final state and every outcome. */
export function feedKeys(steps: [string, InputKey?][], start: InputState = emptyInput()) {
  let state = start;
  const outcomes: unknown[] = [];
  for (const [input, key] of steps) {
    const next = applyInputKey(state, input, key ?? {});
    state = next.state;
    if (next.outcome) outcomes.push(next.outcome);
  }
  return { state, outcomes };
}
