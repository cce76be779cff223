/**
 * A request body's JSON text, built from the JSON texts of its parts. A long session's body is mostly the
 * conversation, which only grows: each finished message keeps its text, and the body is joined from the
 * texts instead of serializing the whole history on every turn.
 *
 * Every text is kept to one byte per character (characters above U+00FF written as JSON `\uXXXX` escapes,
 * which the API reads as the same characters): in Bun 1.4 one such character anywhere makes
 * `JSON.stringify` of the whole body about ten times slower (a 330 kB body: 0.4 ms plain, 3.8 ms with
 * one "—" in the system prompt), and the whole joined text, and its encoding for the request, two-byte.
 *
 * The SDKs take such a text as it is: a `body` string in the per-request options, with a `content-type`
 * header, "Pass raw type verbatim" (`RequestOptions.body`: "The request body. Can be a string, JSON
 * object, FormData, or other supported types", @anthropic-ai/sdk 1.12 to 1.14 and openai 7.57 to 7.59
 * internal/request-options.d.ts; `buildBody` in their client.mjs).
 */

/** The per-request options that send `text` as the body, unchanged, as JSON (and abort on `signal`). */
export function rawJsonOptions(
  text: string,
  signal: AbortSignal | undefined,
): { body: string; headers: { "content-type": string }; signal?: AbortSignal } {
  return { body: text, headers: { "content-type": "application/json" }, ...(signal ? { signal } : {}) };
}

/**
 * Remembers the JSON text of each array item it has serialized, by object identity. Only for items that
 * are never changed after they are first sent (the adapters' converted history: a message object always
 * converts to the same item, since history messages are frozen once in a run's history
 * (kernel/conversation/freeze.ts), and an item that may still grow is a fresh copy in each request).
 */
export class JsonTexts {
  readonly #texts = new WeakMap<object, string>();
  /** Per conversation (by its first item): the items of its last request but the last one, and their
   * text, which the next request of a growing conversation starts with. */
  readonly #prefixes = new WeakMap<object, { items: readonly object[]; count: number; text: string }>();

  /**
   * `JSON.stringify(params)`, same keys in the same order, with the array under `key` joined from the
   * remembered texts of its items. Keys whose value JSON leaves out (undefined, functions) are left out.
   * Built by concatenation, which the engine keeps as a rope until fetch reads it once.
   */
  body(params: object, key: string): string {
    let body = "{";
    for (const [name, value] of Object.entries(params)) {
      const text = name === key && Array.isArray(value) ? `[${this.#arrayText(value)}]` : oneByteJson(value);
      if (text !== undefined) body += `${body.length > 1 ? "," : ""}${JSON.stringify(name)}:${text}`;
    }
    return `${body}}`;
  }

  /**
   * The items' texts joined with commas. A conversation's next request repeats its previous one's items
   * but the last (which may have been a marked copy): their text is reused whole, so a long session
   * adds only its new items' texts instead of joining the whole history again.
   */
  #arrayText(items: readonly object[]): string {
    const first = items[0];
    if (first === undefined) return "";
    const stable = items.length - 1;
    const kept = this.#prefixes.get(first);
    let text = this.#text(first);
    let start = 1;
    if (kept && kept.count <= stable && startsWith(items, kept.items, kept.count)) {
      text = kept.text;
      start = kept.count;
    }
    for (let i = start; i < stable; i++) text += `,${this.#text(items[i] as object)}`;
    if (stable > 0) this.#prefixes.set(first, { items, count: stable, text });
    return stable > 0 ? `${text},${this.#text(items[stable] as object)}` : text;
  }

  #text(item: object): string {
    let text = this.#texts.get(item);
    if (text === undefined) {
      text = oneByteJson(item) ?? "null";
      this.#texts.set(item, text);
    }
    return text;
  }
}

/** True when the first `count` items of `items` are those of `kept` (by identity). */
function startsWith(items: readonly object[], kept: readonly object[], count: number): boolean {
  for (let i = 0; i < count; i++) if (items[i] !== kept[i]) return false;
  return true;
}

/** Characters JSON text may hold as they are but a one-byte (Latin-1) string cannot. */
const WIDE_CHAR = /[\u0100-\uffff]/;
const WIDE_CHARS = /[\u0100-\uffff]/g;

/** `JSON.stringify(value)` with every character above U+00FF escaped (`\uXXXX`, each UTF-16 unit of a
 * pair on its own, as JSON writes them); undefined where JSON leaves the value out. */
export function oneByteJson(value: unknown): string | undefined {
  const text: string | undefined = JSON.stringify(value);
  if (text === undefined) return undefined;
  return WIDE_CHAR.test(text)
    ? text.replace(WIDE_CHARS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
    : text;
}
