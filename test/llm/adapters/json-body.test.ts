/**
 * Request bodies joined from remembered message texts (src/llm/adapters/json-body.ts): the text is what
 * JSON.stringify writes, one byte per character, and a stream function that keeps its texts between
 * requests sends what a fresh one sends, for every adapter that uses it.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Message } from "../../../src/kernel/conversation/messages.ts";
import { JsonTexts, oneByteJson } from "../../../src/llm/adapters/json-body.ts";
import { type FakeLlmServer, startFakeLlmServer } from "../../support/fake-llm-server.ts";
import { collect, expectDone, makeRequest, streamFor } from "../harness.ts";

/** True when some character of `text` needs more than one byte in a Latin-1 string. */
const hasWide = (text: string) => Array.from(text).some((c) => (c.codePointAt(0) ?? 0) > 0xff);

describe("JsonTexts.body", () => {
  test("writes JSON.stringify's text: same keys in the same order, undefined values left out", () => {
    const items = [
      { role: "user", content: 'a "quoted" line\nand é' },
      { role: "assistant", content: null },
    ];
    const params = {
      model: "m",
      gone: undefined,
      messages: items,
      stream: true,
      nested: { n: 1, list: [1, "x"] },
    };
    const texts = new JsonTexts();
    expect(texts.body(params, "messages")).toBe(JSON.stringify(params));
    // Again with a new item after the remembered ones.
    items.push({ role: "user", content: "more" });
    expect(texts.body(params, "messages")).toBe(JSON.stringify(params));
  });

  test("two conversations sent in turn through one JsonTexts, growing, with a last item that changes each time", () => {
    const texts = new JsonTexts();
    const a: object[] = [{ role: "user", content: "a" }];
    const b: object[] = [{ role: "user", content: "b" }];
    for (let turn = 1; turn <= 5; turn++) {
      for (const [name, items] of [
        ["a", a],
        ["b", b],
      ] as const) {
        // The previous request's last item was a marked copy: this request sends the plain one, then more.
        items.pop();
        items.push(
          { role: "assistant", content: `${name}${turn}` },
          { role: "user", content: `${name}${turn}!` },
        );
        const marked = [...items.slice(0, -1), { ...items.at(-1), cache_control: { type: "ephemeral" } }];
        expect(texts.body({ model: "m", messages: marked }, "messages")).toBe(
          JSON.stringify({ model: "m", messages: marked }),
        );
        items.push({ role: "user", content: `${name}${turn} plain` });
      }
    }
    // An elided copy in place of an earlier item, then more: the earlier text must not be reused.
    const elided = [
      a[0] as object,
      { role: "user", content: "[elided]" },
      ...a.slice(2),
      { role: "user", content: "next" },
    ];
    expect(texts.body({ messages: elided }, "messages")).toBe(JSON.stringify({ messages: elided }));
    // A shorter list after the longer ones.
    const short = a.slice(0, 2);
    expect(texts.body({ messages: short }, "messages")).toBe(JSON.stringify({ messages: short }));
  });

  test("characters above U+00FF are written as \\u escapes that parse back to the same value", () => {
    const params = {
      system: "You are a helper — careful… 日本語",
      messages: [{ role: "user", content: "emoji 😀, a lone \ud800 surrogate, and ÿ" }],
    };
    const text = new JsonTexts().body(params, "messages");
    expect(hasWide(text)).toBe(false);
    expect(hasWide(JSON.stringify(params))).toBe(true);
    expect(text).toContain("\\u2014");
    expect(JSON.parse(text)).toEqual(params);
    expect(oneByteJson(params)).toBe(text);
    expect(oneByteJson(undefined)).toBeUndefined();
  });
});

let server: FakeLlmServer;
beforeAll(async () => {
  server = await startFakeLlmServer();
});
afterAll(async () => {
  await server.close();
});

/** A history that grows by one tool round per step, with a wide character in every result. */
function rounds(count: number): Message[] {
  const messages: Message[] = [{ role: "user", content: "read the files — all of them" }];
  for (let i = 1; i <= count; i++) {
    messages.push(
      {
        role: "assistant",
        parts: [
          { type: "text", text: `Reading ${i}…` },
          { type: "tool_call", id: `call_${i}`, name: "read_file", arguments: { path: `f${i}.txt` } },
        ],
      },
      {
        role: "tool",
        toolCallId: `call_${i}`,
        toolName: "read_file",
        content: `line ${i} — ✓`,
        isError: i % 3 === 0,
      },
    );
  }
  return messages;
}

const KINDS = [
  { name: "anthropic", kind: "anthropic", model: "claude-haiku-4-5", extra: {} },
  { name: "openai chat completions", kind: "openai", model: "gpt-5-mini", extra: {} },
  { name: "openai responses", kind: "openai", model: "gpt-5-mini", extra: { compatible: false } },
] as const;

describe.each(KINDS)(
  "$name: a kept stream function sends what a fresh one sends",
  ({ kind, model, extra }) => {
    test("over a growing history, an elided copy, and a shorter list again", async () => {
      const kept = streamFor(server, kind, extra);
      const grown = rounds(6);
      const elided = grown.map((m) =>
        m.role === "tool" && m.toolCallId === "call_2" ? { ...m, content: "[elided]" } : m,
      );
      // A user line after tool results joins their turn (Anthropic merges them into one user turn).
      const followUp: Message[] = [...rounds(3), { role: "user", content: "and now — stop" }];
      const histories: Message[][] = [rounds(1), rounds(2), rounds(3), followUp, grown, elided, rounds(2)];
      for (const messages of histories) {
        const sent: { body: unknown; raw: string }[] = [];
        for (const stream of [kept, streamFor(server, kind, extra)]) {
          server.enqueue({ text: "done" });
          expectDone(
            await collect(
              stream(makeRequest(kind, model, messages, { system: "You are a test — of bodies." })),
            ),
          );
          const request = server.requests.at(-1);
          sent.push({ body: request?.body, raw: JSON.stringify(request?.body) });
        }
        expect(sent[0]?.body).toEqual(sent[1]?.body);
        // The wide characters arrive as themselves, not as escape text.
        expect(sent[0]?.raw).toContain("of bodies.");
        expect(sent[0]?.raw).toContain("✓");
      }
    });
  },
);
