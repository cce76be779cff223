/**
 * Session ids: their shape, a new one, and the short form people type. The random suffix comes from Web
 * Crypto's `crypto.getRandomValues` (a global), not node:crypto: importing node:crypto loads Bun's Node
 * stream modules with it, about 2 ms of CPU and several MiB of a one-shot's memory (bench/startup.ts),
 * for three random bytes.
 */

/** Shape of a session id: `YYYYMMDD-HHMMSS-xxxxxx` (UTC time, then 6 random hex digits). */
export const SESSION_ID_PATTERN = /^\d{8}-\d{6}-[0-9a-f]{6}$/;

/** Characters a session id (or a prefix of one) may hold; anything else could escape the sessions directory. */
const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

function pad(n: number, width = 2): string {
  return String(n).padStart(width, "0");
}

/**
 * A new session id: sortable by creation time (to the second, UTC) and unique through its random suffix,
 * e.g. `20261122-143501-ab12cd`.
 */
export function newSessionId(now: Date = new Date()): string {
  const date = `${now.getUTCFullYear()}${pad(now.getUTCMonth() + 1)}${pad(now.getUTCDate())}`;
  const time = `${pad(now.getUTCHours())}${pad(now.getUTCMinutes())}${pad(now.getUTCSeconds())}`;
  const suffix = [...crypto.getRandomValues(new Uint8Array(3))].map((b) => b.toString(16).padStart(2, "0"));
  return `${date}-${time}-${suffix.join("")}`;
}

/** True when `id` can name a file inside the sessions directory (no separators, no `..`). */
export function isSafeSessionId(id: string): boolean {
  return SAFE_ID.test(id) && !id.includes("..");
}

/**
 * The short form of a session id that `agent sessions list` shows and `--resume`/`show` accept: the random
 * suffix (`ab12cd` of `20261122-143501-ab12cd`); ids of another shape are their own short form.
 */
export function shortSessionId(id: string): string {
  return SESSION_ID_PATTERN.test(id) ? id.slice(-6) : id;
}
