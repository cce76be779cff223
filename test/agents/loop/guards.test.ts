import { afterEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import path from "node:path";
import {
  ContextMeter,
  canonicalArgs,
  dropStaleThinking,
  elideOldToolResults,
  estimateTokens,
  StallDetector,
} from "../../../src/agents/loop/guards.ts";
import { detectTextToolCalls, repairToolCall } from "../../../src/agents/loop/tool-calls/tool-call-repair.ts";
import type { Message } from "../../../src/kernel/index.ts";
import { assertNoOrphans, type Harness, harness, spec } from "../harness.ts";

describe("token estimate with a running total", () => {
  const result = (n: number, size: number): Message => ({
    role: "tool",
    toolCallId: `c${n}`,
    toolName: "read_file",
    content: "y".repeat(size),
    isError: false,
  });
  test("one meter across appends, a rewritten middle and a shorter history gives what a fresh meter gives", () => {
    const meter = new ContextMeter();
    const fresh = (messages: Message[]) => estimateTokens("sys", messages, [], new ContextMeter());
    const history: Message[] = [{ role: "user", content: "goal" }];
    for (let n = 1; n <= 20; n++) {
      history.push(result(n, 100 * n));
      expect(estimateTokens("sys", history, [], meter)).toBe(fresh(history));
    }
    // Eliding replaces a message in the middle with a shorter one (a new object).
    history[5] = result(5, 3);
    expect(estimateTokens("sys", history, [], meter)).toBe(fresh(history));
    // Compaction replaces the whole history with a shorter one.
    const compacted: Message[] = [{ role: "user", content: "summary" }, result(99, 50)];
    expect(estimateTokens("sys", compacted, [], meter)).toBe(fresh(compacted));
    expect(estimateTokens("sys", history, [], meter)).toBe(fresh(history));
  });
});

describe("context eliding", () => {
  const big = "x".repeat(4000);
  const exchange = (n: number): Message[] => [
    {
      role: "assistant",
      parts: [{ type: "tool_call", id: `c${n}`, name: "read_file", arguments: { path: `${n}` } }],
    },
    { role: "tool", toolCallId: `c${n}`, toolName: "read_file", content: big, isError: false },
  ];
  const history: Message[] = [{ role: "user", content: "goal" }, ...[1, 2, 3, 4, 5].flatMap(exchange)];

  test("elides the oldest results first, keeps the first message and the latest exchanges", () => {
    const { messages, elided } = elideOldToolResults(history, { system: "s", tools: [], limitTokens: 3500 });
    expect(elided).toBe(2);
    expect(messages).toHaveLength(history.length);
    expect(messages[0]).toEqual({ role: "user", content: "goal" });
    const contents = messages.flatMap((m) => (m.role === "tool" ? [m.content] : []));
    expect(contents).toEqual(["[elided: 4000 chars]", "[elided: 4000 chars]", big, big, big]);
    assertNoOrphans(messages);
    expect(history[2]).toMatchObject({ content: big }); // the input is not mutated
  });

  test("never touches the latest two exchanges even when still over the limit", () => {
    const { messages } = elideOldToolResults(history, { system: "s", tools: [], limitTokens: 10 });
    const contents = messages.flatMap((m) => (m.role === "tool" ? [m.content] : []));
    expect(contents.slice(-2)).toEqual([big, big]);
    expect(contents.slice(0, 3).every((c) => c.startsWith("[elided:"))).toBe(true);
  });

  let h: Harness | undefined;
  afterEach(async () => {
    await h?.cleanup();
    h = undefined;
  });

  test("in a run whose turns alone fill the window (last resort, past 95%), old results are elided and no call is orphaned", async () => {
    h = await harness({
      specs: [spec("root", ["read_file"])],
      contextWindow: 4000,
      script: {
        queue: [1, 2, 3, 4, 5].map((n) => ({
          toolCalls: [{ name: "read_file", arguments: { path: `f${n}.txt` } }],
        })),
        fallback: () => ({ text: "read them all" }),
      },
    });
    for (const n of [1, 2, 3, 4, 5])
      writeFileSync(path.join(h.dir, `f${n}.txt`), `file ${n}\n${"line\n".repeat(800)}`);
    const result = await h.run("read five files");
    expect(result.finishReason).toBe("stop");
    const last = h.provider.requests.at(-1)?.request.messages ?? [];
    assertNoOrphans(last);
    expect(last.some((m) => m.role === "tool" && m.content.startsWith("[elided:"))).toBe(true);
    expect(h.of("warning").some((w) => w.data.code === "elided")).toBe(true);
    // The result says context was cut, with the turns and the calls that were made.
    expect(result.activity?.contextElided).toBe(true);
    expect(result.activity?.turns).toBe(6);
    expect(result.activity?.toolCalls.map((c) => `${c.tool} ${c.target} ${c.outcome}`)).toEqual(
      [1, 2, 3, 4, 5].map((n) => `read_file f${n}.txt ok`),
    );
  });

  test("a run that never came near the window says its context was not elided", async () => {
    h = await harness({ specs: [spec("root", ["read_file"])], script: { queue: [{ text: "hi" }] } });
    const result = await h.run("say hi");
    expect(result.activity).toEqual({
      turns: 1,
      stumbles: 0,
      toolCalls: [],
      denials: [],
      contextElided: false,
    });
  });
});

describe("stall detector", () => {
  const entry = (
    id: string,
    name: string,
    args: Record<string, unknown>,
    result = "same",
    mutated = false,
  ) => ({
    call: { id, name, arguments: args },
    result,
    mutated,
  });
  test("key order does not matter; a different call does not repeat", () => {
    expect(canonicalArgs({ b: 1, a: { d: 2, c: 3 } })).toBe(canonicalArgs({ a: { c: 3, d: 2 }, b: 1 }));
    const d = new StallDetector();
    expect(d.repeatedCall([entry("1", "glob", { a: 1, b: 2 })])).toBeUndefined();
    expect(d.repeatedCall([entry("2", "glob", { b: 2, a: 1 })])?.id).toBe("2");
    expect(d.repeatedCall([entry("3", "grep", { b: 2, a: 1 })])).toBeUndefined();
  });
});

describe("tool-call repair", () => {
  const call = (raw: string) => ({ id: "1", name: "t", arguments: {}, rawArguments: raw, parseError: "bad" });
  test("repairs single quotes, trailing commas and unquoted keys", () => {
    const out = repairToolCall(call("{path: 'a.txt', 'n': 1,}"));
    expect(out).toEqual({
      ok: true,
      repaired: true,
      call: { id: "1", name: "t", arguments: { path: "a.txt", n: 1 } },
    });
  });
  test("refuses cut-off text and non-objects", () => {
    expect(repairToolCall(call('{"content": "hal')).ok).toBe(false);
    expect(repairToolCall(call("[1, 2]")).ok).toBe(false);
    expect(repairToolCall(call("")).ok).toBe(false);
  });
});

describe("tool calls written as text", () => {
  const tools = new Set(["read_file", "exec"]);
  test("whole-text JSON, OpenAI-style function objects and arrays", () => {
    expect(detectTextToolCalls('{"name":"exec","arguments":{"command":"ls"}}', tools)?.calls).toEqual([
      { name: "exec", arguments: { command: "ls" } },
    ]);
    expect(
      detectTextToolCalls(
        '{"type":"function","function":{"name":"exec","arguments":"{\\"command\\":\\"ls\\"}"}}',
        tools,
      )?.calls,
    ).toEqual([{ name: "exec", arguments: { command: "ls" } }]);
    expect(
      detectTextToolCalls('[{"name":"read_file","parameters":{"path":"a"}}]', tools)?.calls,
    ).toHaveLength(1);
  });
  test("ignores unknown tools, prose and JSON of another shape", () => {
    expect(detectTextToolCalls('{"name":"rm_rf","arguments":{}}', tools)).toBeUndefined();
    expect(detectTextToolCalls("I will run exec next.", tools)).toBeUndefined();
    expect(detectTextToolCalls('{"name":"exec","arguments":{},"extra":1}', tools)).toBeUndefined();
    expect(detectTextToolCalls('```json\n{"answer": 42}\n```', tools)).toBeUndefined();
  });
});

describe("stall detector across responses", () => {
  const read = (id: string, path: string, result = `content of ${path}`) => ({
    call: { id, name: "read_file", arguments: { path } },
    result,
    mutated: false,
  });
  const write = (id: string, path: string, ok = true) => ({
    call: { id, name: "write_file", arguments: { path, content: "x" } },
    result: ok ? `wrote ${path}` : "error: denied",
    mutated: ok,
  });
  test("A, B, A without a change in between is a stall", () => {
    const d = new StallDetector();
    expect(d.repeatedCall([read("1", "a")])).toBeUndefined();
    expect(d.repeatedCall([read("2", "b")])).toBeUndefined();
    expect(d.repeatedCall([read("3", "a")])?.id).toBe("3");
  });
  test("reading again after an edit that changed the file is progress", () => {
    const d = new StallDetector();
    const edit = {
      call: { id: "e", name: "edit_file", arguments: { path: "a" } },
      result: "edited a",
      mutated: true,
    };
    expect(d.repeatedCall([read("1", "a", "old")])).toBeUndefined();
    expect(d.repeatedCall([edit])).toBeUndefined();
    expect(d.repeatedCall([read("2", "a", "new")])).toBeUndefined();
  });
  test("interleaved writes do not hide a loop: read a, write b, read a, write b is a stall", () => {
    const d = new StallDetector();
    expect(d.repeatedCall([read("1", "a")])).toBeUndefined();
    expect(d.repeatedCall([write("2", "b")])).toBeUndefined();
    expect(d.repeatedCall([read("3", "a")])).toBeUndefined();
    expect(d.repeatedCall([write("4", "b")])?.id).toBe("4");
    expect(d.repeatedCall([read("5", "a")])?.id).toBe("5");
  });
  test("exec and delegation repeated with the same result are stalls, whatever sits between them", () => {
    const d = new StallDetector();
    const exec = (id: string, command: string) => ({
      call: { id, name: "exec", arguments: { command } },
      result: `ran ${command}`,
      mutated: true,
    });
    const child = (id: string) => ({
      call: { id, name: "code-reader", arguments: { goal: "look" } },
      result: "nothing new",
      mutated: true,
    });
    expect(d.repeatedCall([read("1", "a"), exec("2", "ls")])).toBeUndefined();
    expect(d.repeatedCall([child("3"), write("4", "c", false)])).toBeUndefined();
    expect(d.repeatedCall([read("5", "a")])).toBeUndefined();
    expect(d.repeatedCall([exec("6", "ls")])).toBeUndefined();
    // exec ls redid what it did before (no change), so the delegation's identical answer is a repeat.
    expect(d.repeatedCall([child("7")])?.id).toBe("7");
    expect(d.repeatedCall([write("8", "c", false), read("9", "a")])?.id).toBe("8");
    expect(d.repeatedCall([exec("10", "ls")])?.id).toBe("10");
  });
  test("two different large results of the same call are not a stall; the same large result again is", () => {
    const d = new StallDetector();
    // Results that differ only past the first megabyte: the step is told apart by all of its text.
    const big = (tail: string) => `${"x".repeat(1_000_000)}${tail}`;
    expect(d.repeatedCall([read("1", "a", big("first"))])).toBeUndefined();
    expect(d.repeatedCall([read("2", "a", big("second"))])).toBeUndefined();
    expect(d.repeatedCall([read("3", "a", big("first"))])?.id).toBe("3");
  });
  test("two writes alternating forever are a stall: a write seen before changes nothing", () => {
    const d = new StallDetector();
    expect(d.repeatedCall([write("1", "a")])).toBeUndefined();
    expect(d.repeatedCall([write("2", "b")])).toBeUndefined();
    expect(d.repeatedCall([write("3", "a")])).toBeUndefined();
    expect(d.repeatedCall([write("4", "b")])?.id).toBe("4");
  });
  test("the same call with a different result is not a repeat", () => {
    const d = new StallDetector();
    expect(d.repeatedCall([read("1", "log", "line 1")])).toBeUndefined();
    expect(d.repeatedCall([read("2", "log", "line 1\nline 2")])).toBeUndefined();
  });
});

describe("eliding and the thinking-block prefix rule", () => {
  const big = "x".repeat(4000);
  const thinking = (n: number) => ({
    type: "reasoning" as const,
    text: `t${n}`,
    signature: `s${n}`,
    provider: "anthropic" as const,
  });
  const exchange = (n: number): Message[] => [
    {
      role: "assistant",
      parts: [
        thinking(n),
        { type: "tool_call", id: `c${n}`, name: "read_file", arguments: { path: `${n}` } },
      ],
    },
    { role: "tool", toolCallId: `c${n}`, toolName: "read_file", content: big, isError: false },
  ];
  const history: Message[] = [{ role: "user", content: "goal" }, ...[1, 2, 3, 4, 5].flatMap(exchange)];
  const thinkingOf = (messages: Message[]) =>
    messages.flatMap((m) =>
      m.role === "assistant" ? m.parts.filter((p) => p.type === "reasoning").map((p) => p.text) : [],
    );

  test("thinking blocks after the first elided result are dropped; those before it stay", () => {
    const { messages, elided } = elideOldToolResults(history, { system: "s", tools: [], limitTokens: 3500 });
    expect(elided).toBe(2);
    // Result 1 (message 2) changed: t1 came before it and stays; t2..t5 came after and go.
    expect(thinkingOf(messages)).toEqual(["t1"]);
    expect(
      messages.flatMap((m) => (m.role === "assistant" ? m.parts.filter((p) => p.type === "tool_call") : [])),
    ).toHaveLength(5);
    expect(thinkingOf(history)).toEqual(["t1", "t2", "t3", "t4", "t5"]); // the input is not mutated
  });

  test("nothing elided, nothing dropped; other providers' reasoning is kept", () => {
    expect(
      thinkingOf(elideOldToolResults(history, { system: "s", tools: [], limitTokens: 1e9 }).messages),
    ).toHaveLength(5);
    const gemini: Message[] = [
      { role: "user", content: "a" },
      { role: "assistant", parts: [{ type: "reasoning", text: "g", signature: "x", provider: "gemini" }] },
    ];
    const changed: Message[] = [{ role: "user", content: "b" }, ...gemini.slice(1)];
    expect(dropStaleThinking(gemini, changed)).toEqual(changed);
  });
});
