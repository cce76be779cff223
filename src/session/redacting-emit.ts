import { type AgentEvent, type EmitFn, makeEvent, WholeWords } from "../kernel/index.ts";
import type { Redactor } from "../kernel/text/redact.ts";

/**
 * An emit function that redacts every event before it reaches `sink` (transcript, renderers).
 * Streamed text needs more than per-event redaction: a key split across two `text_delta` chunks would
 * match in neither. So each agent's streamed text is passed on in whole words (whole-words.ts); the
 * unfinished word is held until it completes, or until that agent's next non-delta event (plan_end and
 * the rest), which releases it first.
 */
export function redactingEmit(redactor: Redactor, sink: EmitFn): EmitFn {
  const held = new Map<string, { words: WholeWords; event: AgentEvent<"text_delta"> }>();

  const release = (agent: string) => {
    const pending = held.get(agent);
    if (!pending) return;
    held.delete(agent);
    const rest = pending.words.end();
    if (rest !== "") sink(redactor.redactValue(withDelta(pending.event, rest)));
  };

  return (event) => {
    if (event.kind !== "text_delta") {
      release(event.agent);
      sink(redactor.redactValue(event));
      return;
    }
    const stream = held.get(event.agent) ?? { words: new WholeWords(), event };
    stream.event = event;
    held.set(event.agent, stream);
    const ready = stream.words.push(event.data.delta);
    if (ready !== "") sink(redactor.redactValue(withDelta(event, ready)));
  };
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
