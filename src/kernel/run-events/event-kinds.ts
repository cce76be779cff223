/**
 * Every event kind of EventDataMap (events.ts), as a list at run time (the docs-contract test checks that
 * docs/ci-and-json.md names each one). The record's type makes the list complete: a kind added to
 * EventDataMap and not here, or named here and not there, does not compile.
 */
import type { EventKind } from "./events.ts";

const KINDS: Record<EventKind, true> = {
  session_start: true,
  plan_start: true,
  plan_end: true,
  text_delta: true,
  reasoning_delta: true,
  message: true,
  tool_start: true,
  tool_output: true,
  tool_progress: true,
  tool_end: true,
  act_start: true,
  act_end: true,
  approval_request: true,
  approval_decision: true,
  verify: true,
  learn_signal: true,
  model_switch: true,
  compaction: true,
  skill_activated: true,
  checkpoint: true,
  rewind: true,
  plan: true,
  notification: true,
  warning: true,
  error: true,
  session_end: true,
};

const isEventKind = (key: string): key is EventKind => Object.hasOwn(KINDS, key);

/** The event kinds, in EventDataMap's order. */
export const EVENT_KINDS: readonly EventKind[] = Object.keys(KINDS).filter(isEventKind);
