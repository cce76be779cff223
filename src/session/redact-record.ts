import { REDACTED, type Redactor } from "../kernel/redact.ts";

/** Object keys whose whole string value is a credential, whatever it looks like. */
const SECRET_KEYS = /^(authorization|proxy-authorization|x-api-key|x-goog-api-key|api[_-]?key|cookie)$/i;

/**
 * Returns a copy of a JSON-like value with every string redacted by `redactor`, and the whole value of
 * credential-named keys (`Authorization`, `x-api-key`, ...) replaced, so a secret never reaches disk.
 */
export function redactRecord<T>(value: T, redactor: Redactor): T {
  return walk(value, redactor) as T;
}

function walk(value: unknown, redactor: Redactor): unknown {
  if (typeof value === "string") return redactor.redact(value);
  if (Array.isArray(value)) return value.map((item) => walk(item, redactor));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      out[key] = typeof item === "string" && SECRET_KEYS.test(key) ? REDACTED : walk(item, redactor);
    }
    return out;
  }
  return value;
}
