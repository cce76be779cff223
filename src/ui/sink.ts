import type { TextSink } from "./renderer-types.ts";

/**
 * Writes `text` and resolves once the sink has accepted it, so the process may exit without losing it.
 * A failed write (a closed pipe) also resolves: there is nowhere left to report it.
 */
export function writeAndFlush(sink: TextSink, text: string): Promise<void> {
  return new Promise((resolve) => {
    sink.write(text, () => resolve());
  });
}
