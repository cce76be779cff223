/**
 * History is a value (docs/library.md, "History"): a message is deep-frozen when it enters a run's
 * history (the object, its parts array and parts, tool-call arguments, images), so an in-place edit throws
 * a TypeError where it is made (ES modules are strict) instead of going unnoticed. What is cached from a
 * message by its identity (the adapters' converted request bodies, json-body.ts; the loop's context meter)
 * can then never send or count stale text: a changed message is a new object.
 *
 * Pure: no I/O, no state. Freezing a message walks what it holds, once when it is appended; a run that
 * starts from a history walks it once more (already-frozen objects are left as they are, cheaply).
 */
import type { Message } from "./messages.ts";

/** Freezes `message` and everything it holds; returns it (the same object). */
export function freezeMessage<M extends Message>(message: M): M {
  freezeDeep(message, []);
  return message;
}

/** Freezes every message of `messages` (not the array: a run's history grows); returns the array. */
export function freezeHistory<T extends readonly Message[]>(messages: T): T {
  for (const message of messages) freezeDeep(message, []);
  return messages;
}

/**
 * Freezes a JSON-like value and everything it holds. A value someone else froze is still walked: a
 * shallow `Object.freeze` leaves its parts writable. `ancestors` (the objects above `value`; a message is
 * a few levels deep) stops a value that holds itself: such a value is met again already frozen, so only
 * frozen values are looked up. A typed array cannot be frozen (the engine refuses while it has elements);
 * messages hold none (images are base64 text), so one is left as it is.
 */
function freezeDeep(value: unknown, ancestors: object[]): void {
  if (typeof value !== "object" || value === null || ArrayBuffer.isView(value)) return;
  if (Object.isFrozen(value)) {
    if (ancestors.includes(value)) return;
  } else Object.freeze(value);
  ancestors.push(value);
  for (const child of Object.values(value)) freezeDeep(child, ancestors);
  ancestors.pop();
}
