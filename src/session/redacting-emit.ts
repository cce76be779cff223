import { type AgentEvent, type EmitFn, makeEvent } from "../kernel/index.ts";
import type { Redactor } from "../kernel/redact.ts";

/** Past this many characters without whitespace, held text is released anyway (keys are far shorter). */
const MAX_HELD = 1024;

/**
 * An emit function that redacts every event before it reaches `sink` (transcript, renderers).
 * Streamed text needs more than per-event redaction: a key split across two `text_delta` chunks would
 * match in neither. Secrets contain no whitespace, so each agent's streamed text is passed on only up to
 * its last whitespace; the unfinished word is held until it completes, or until that agent's next
 * non-delta event (plan_end and the rest), which releases it first.
 */
export function redactingEmit(redactor: Redactor, sink: EmitFn): EmitFn {
  const held = new Map<string, { text: string; event: AgentEvent<"text_delta"> }>();

  const release = (agent: string) => {
    const pending = held.get(agent);
    if (!pending) return;
    held.delete(agent);
    sink(redactor.redactValue(withDelta(pending.event, pending.text)));
  };

  return (event) => {
    if (event.kind !== "text_delta") {
      release(event.agent);
      sink(redactor.redactValue(event));
      return;
    }
    const text = (held.get(event.agent)?.text ?? "") + event.data.delta;
    const cut = lastWhitespaceEnd(text);
    const ready = text.length > MAX_HELD ? text : text.slice(0, cut);
    const rest = text.slice(ready.length);
    if (rest === "") held.delete(event.agent);
    else held.set(event.agent, { text: rest, event });
    if (ready !== "") sink(redactor.redactValue(withDelta(event, ready)));
  };
}

function lastWhitespaceEnd(text: string): number {
  for (let i = text.length - 1; i >= 0; i--) if (/\s/.test(text[i] ?? "")) return i + 1;
  return 0;
}

function withDelta(event: AgentEvent<"text_delta">, delta: string): AgentEvent<"text_delta"> {
  const copy = makeEvent(
    {
      agent: event.agent,
      name: event.name,
      depth: event.depth,
      ...(event.parent ? { parent: event.parent } : {}),
    },
    "text_delta",
    { delta },
  );
  copy.time = event.time;
  return copy;
}
