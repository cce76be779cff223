import type { ProviderNotice } from "../kernel/index.ts";

/** A retry or fallback notice as one line (a stderr line of `agent helper`, a warning event of a run). */
export function describeNotice(notice: ProviderNotice): string {
  if (notice.type === "retry") {
    const { error } = notice;
    const status = error.status !== undefined ? ` ${error.status}` : "";
    return `${error.providerName ?? error.provider} ${error.model}: ${error.kind}${status}; retry ${notice.attempt} in ${(notice.delayMs / 1000).toFixed(1)}s`;
  }
  return `${notice.from.providerName}:${notice.from.id} ${notice.error.kind} (${notice.error.message}); falling back to ${notice.to.providerName}:${notice.to.id}`;
}
