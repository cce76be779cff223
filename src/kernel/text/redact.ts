/**
 * Secret redaction for everything that leaves the process: tool results, transcripts, cassettes, logs.
 * Two layers: exact values of secret-looking environment variables, and well-known key shapes.
 */

import { mapStrings } from "./map-strings.ts";

const SECRET_NAME = /(API_?KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH)/i;
const MIN_SECRET_LENGTH = 8;
export const REDACTED = "[REDACTED]";
/** Object keys whose whole string value is a credential, whatever it looks like. */
const SECRET_KEYS = /^(authorization|proxy-authorization|x-api-key|x-goog-api-key|api[_-]?key|cookie)$/i;

const KEY_SHAPES: RegExp[] = [
  /sk-ant-[A-Za-z0-9_-]{8,}/g, // Anthropic
  /sk-(?:proj-|svcacct-)?[A-Za-z0-9_-]{16,}/g, // OpenAI
  /AIza[0-9A-Za-z_-]{30,}/g, // Google
  /(authorization\s*[:=]\s*"?(?:bearer|basic)?\s*)[^\s",}]+/gi,
  /((?:x-api-key|x-goog-api-key|api[_-]?key)\s*["']?\s*[:=]\s*["']?)[^\s"',}]+/gi,
];
/**
 * A text matched by none of these holds no key shape: every KEY_SHAPES pattern needs `sk-`, `AIza`,
 * `authorization` or `api` (any case). One simple test spares most texts the five replaces, and a
 * process whose texts hold none of them the compiling of the five patterns (about 1 ms of CPU at start).
 */
const KEY_SHAPE_HINT = /sk-|aiza|authorization|api/i;

/** True when a variable or header of this name holds a credential (GITHUB_TOKEN, Authorization, X-API-Key). */
export function looksSecret(name: string): boolean {
  return SECRET_NAME.test(name) || SECRET_KEYS.test(name) || /api-key/i.test(name);
}

export class Redactor {
  private values: string[] = [];

  constructor(secretValues: Iterable<string>) {
    this.add(secretValues);
  }

  /**
   * Learns secrets that appear while the run goes on (an OAuth token read from its store or refreshed, a
   * client secret read when its server starts): from now on they are redacted wherever this redactor is
   * used (tool results, events, the transcript, stream-json).
   */
  add(secretValues: Iterable<string>): void {
    const known = new Set(this.values);
    const fresh = [...secretValues].filter((v) => v.length >= MIN_SECRET_LENGTH && !known.has(v));
    if (fresh.length === 0) return;
    // Longest first, so a secret containing another is replaced whole.
    this.values = [...new Set([...this.values, ...fresh])].sort((a, b) => b.length - a.length);
  }

  /** Collects the values of secret-looking variables (ANTHROPIC_API_KEY, GITHUB_TOKEN, ...), plus
   * `extra` values known to be secret (say, what config hands a server). */
  static fromEnv(
    env: Record<string, string | undefined> = process.env,
    extra: Iterable<string> = [],
  ): Redactor {
    const values: string[] = [...extra];
    for (const [name, value] of Object.entries(env)) {
      if (value && SECRET_NAME.test(name)) values.push(value);
    }
    return new Redactor(values);
  }

  redact(text: string): string {
    let out = text;
    for (const value of this.values) {
      if (out.includes(value)) out = out.split(value).join(REDACTED);
    }
    if (!KEY_SHAPE_HINT.test(out)) return out;
    for (const shape of KEY_SHAPES) {
      out = out.replace(shape, (match, prefix?: string) =>
        typeof prefix === "string" && match.startsWith(prefix) ? `${prefix}${REDACTED}` : REDACTED,
      );
    }
    return out;
  }

  /**
   * A copy of a JSON-like value with every string redacted, and the whole string value of credential-named
   * keys (`Authorization`, `x-api-key`, ...) replaced. Works on values, never on serialized JSON, so the
   * result always serializes whatever the strings held.
   */
  redactValue<T>(value: T): T {
    return mapStrings(value, (text, key) =>
      key !== undefined && SECRET_KEYS.test(key) ? REDACTED : this.redact(text),
    );
  }
}
