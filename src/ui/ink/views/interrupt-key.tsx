import type { InterruptKeyName } from "../../renderer-types.ts";
import { useKeys } from "./use-keys.ts";

/**
 * Esc or Ctrl-C while a run or a chat turn goes on (the approval prompt handles its own). Mounting it holds
 * raw mode, so Ctrl-C arrives here as a key rather than as SIGINT from the terminal; onInterrupt raises the
 * same signal.
 */
export function InterruptKey({ onInterrupt }: { onInterrupt: (key?: InterruptKeyName) => void }) {
  useKeys((input, key) => {
    if (key.escape) onInterrupt("escape");
    else if (key.ctrl && input === "c") onInterrupt("ctrl-c");
  });
  return null;
}
