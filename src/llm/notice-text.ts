import type { ProviderNotice } from "../kernel/index.ts";
import { formatDuration } from "../kernel/text/duration-text.ts";

/**
 * A retry or fallback notice as one line (a stderr line of `agent helper`, a warning event of a run, which
 * the run's and the chat's views, progress lines and CI logs print). The wait reads as other durations
 * do: `retry 2 in 380ms`, never `in 0.0s` for a jittered wait under 50 ms.
 */
export function describeNotice(notice: ProviderNotice): string {
  if (notice.type === "retry") {
    const { error } = notice;
    const status = error.status !== undefined ? ` ${error.status}` : "";
    return `${error.providerName ?? error.provider} ${error.model}: ${error.kind}${status}; retry ${notice.attempt} in ${formatDuration(notice.delayMs)}`;
  }
  return `${notice.from.providerName}:${notice.from.id} ${notice.error.kind} (${notice.error.message}); falling back to ${notice.to.providerName}:${notice.to.id}`;
}
