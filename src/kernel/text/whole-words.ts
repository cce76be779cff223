/** Past this many characters without whitespace, held text is released anyway (keys are far shorter). */
const MAX_HELD = 1024;

/**
 * Streamed text passed on in whole words, so a redactor run on each piece sees every secret whole: a key
 * split across two chunks would match in neither. Secrets contain no whitespace, so `push` returns the
 * text up to its last whitespace and holds the unfinished word until it completes; `end` releases it.
 * One instance per stream (the run keeps one per agent: redacting-emit.ts; `agent helper` one for its
 * answer).
 */
export class WholeWords {
  private held = "";

  /** Everything pushed so far up to its last whitespace that was not returned before. */
  push(chunk: string): string {
    const text = this.held + chunk;
    const ready = text.length > MAX_HELD ? text : text.slice(0, lastWhitespaceEnd(text));
    this.held = text.slice(ready.length);
    return ready;
  }

  /** The held unfinished word (possibly ""); the stream starts afresh. */
  end(): string {
    const rest = this.held;
    this.held = "";
    return rest;
  }
}

function lastWhitespaceEnd(text: string): number {
  for (let i = text.length - 1; i >= 0; i--) if (/\s/.test(text[i] ?? "")) return i + 1;
  return 0;
}
