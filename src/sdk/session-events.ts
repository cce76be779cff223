/** A session's one event path: unredacted tap (in-process), then redaction, then the listeners. */

import {
  type AgentEvent,
  type AgentIdentity,
  type EmitFn,
  makeEvent,
  type ProviderNotice,
} from "../kernel/index.ts";
import type { Redactor } from "../kernel/text/redact.ts";
import { describeNotice } from "../llm/notice-text.ts";
import { redactingEmit } from "../session/redacting-emit.ts";
import type { EventQueue } from "./event-queue.ts";
import type { Notice } from "./project/project-notices.ts";
import { emitNoticesAfterStart } from "./project/project-notices.ts";
import type { SessionOptions } from "./types.ts";

/** The session's emit: every event once, in order; `notices` follow the first session_start. */
export function sessionEmit(
  options: Pick<SessionOptions, "onEvent" | "onUnredactedEvent">,
  redactor: Redactor,
  queue: EventQueue,
  notices: readonly Notice[],
): EmitFn {
  const redacted = redactingEmit(redactor, (event) => {
    options.onEvent?.(event);
    queue.push(event);
  });
  const tap = options.onUnredactedEvent;
  const both: EmitFn = tap
    ? (event) => {
        tap(event);
        redacted(event);
      }
    : redacted;
  return emitNoticesAfterStart(both, notices);
}

/** A provider notice (a fallback to another model, a retry) as the event the user sees. */
export function noticeEvent(notice: ProviderNotice, who: AgentIdentity): AgentEvent {
  if (notice.type === "fallback") {
    return makeEvent(who, "model_switch", {
      from: `${notice.from.providerName}:${notice.from.id}`,
      to: `${notice.to.providerName}:${notice.to.id}`,
      reason: `${notice.error.kind}: ${notice.error.message}`,
    });
  }
  return makeEvent(who, "warning", { message: describeNotice(notice), code: "retry" });
}
