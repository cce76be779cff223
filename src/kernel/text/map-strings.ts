/**
 * A copy of a JSON-like value with every string passed through `fn` (object keys are kept; `key` is the
 * key of the string's property, if any). The one walk behind every value-level transform (redaction,
 * workspace placeholders, terminal-safe text): transforms act on values, never on serialized JSON text,
 * so whatever a string holds (quotes, backslashes, `Authorization: Bearer ...`) the result still serializes.
 */
export function mapStrings<T>(value: T, fn: (text: string, key: string | undefined) => string): T {
  return walk(value, fn, undefined) as T;
}

function walk(
  value: unknown,
  fn: (text: string, key: string | undefined) => string,
  key: string | undefined,
): unknown {
  if (typeof value === "string") return fn(value, key);
  if (Array.isArray(value)) return value.map((item) => walk(item, fn, undefined));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [name, item] of Object.entries(value)) out[name] = walk(item, fn, name);
    return out;
  }
  return value;
}
