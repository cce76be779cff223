/**
 * History is a value (docs/library.md, "History"): a message is deep-frozen when it enters a run's
 * history (the object, its parts array and parts, tool-call arguments, images), so an in-place edit throws
 * a TypeError where it is made (ES modules are strict) instead of going unnoticed. What is cached from a
 * message by its identity (the adapters' converted request bodies, json-body.ts; the loop's context meter)
 * can then never send or count stale text: a changed message is a new object.
 *
 * Pure: no I/O. Freezing a message costs its own size once; a message frozen here before is recognised in
 * O(1), so handing a run an already-frozen history again costs one look-up per message.
 */
import type { Message } from "./messages.ts";

/** Every object this module has frozen with all it holds. Being deeply frozen is a permanent property of
 * an object, so remembering it is safe to share between runs, sessions and agents. */
const deeplyFrozen = new WeakSet<object>();

/** Freezes `message` and everything it holds; returns it (the same object). */
export function freezeMessage<M extends Message>(message: M): M {
  freezeDeep(message);
  return message;
}

/** Freezes every message of `messages` (not the array: a run's history grows); returns the array. */
export function freezeHistory<T extends readonly Message[]>(messages: T): T {
  for (const message of messages) freezeDeep(message);
  return messages;
}

/** Freezes a JSON-like value and everything it holds. A value that was frozen by someone else is still
 * walked: a shallow `Object.freeze` leaves its parts writable. A typed array cannot be frozen (the engine
 * refuses while it has elements); messages hold none (images are base64 text), so one is left as it is. */
function freezeDeep(value: unknown): void {
  if (typeof value !== "object" || value === null || deeplyFrozen.has(value)) return;
  if (ArrayBuffer.isView(value)) return;
  // Marked first, so a value holding itself is walked once.
  deeplyFrozen.add(value);
  Object.freeze(value);
  for (const child of Object.values(value)) freezeDeep(child);
}
