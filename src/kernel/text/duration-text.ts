/**
 * A duration as people read it, the same in every output (the status line, tool times, retry lines):
 * `450ms` under a second, then `1.2s`, then `3m04s`. Never `0.0s` for a short wait.
 */
export function formatDuration(ms: number): string {
  const whole = Math.max(0, Math.round(ms));
  if (whole < 1000) return `${whole}ms`;
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)}s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes}m${String(Math.floor(seconds % 60)).padStart(2, "0")}s`;
}
