/** Stop reasons that cut a reply: continued, re-sent, compacted or ended clearly, never reported as `stop`. */
import { afterEach, describe, expect, test } from "bun:test";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { CONTINUE_NOTE, MALFORMED_NOTE, MAX_PAUSE_RESENDS } from "../../../src/agents/loop/stop-reasons.ts";
import { exitCodeFor } from "../../../src/cli/shared/io/exit-code.ts";
import { type Harness, harness, spec } from "../harness.ts";

let h: Harness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

const root = () => spec("root", ["read_file"]);

describe("max_tokens", () => {
  test("a cut reply is continued once with the partial text kept and the catalog's output limit", async () => {
    h = await harness({
      specs: [root()],
      script: { queue: [{ text: "The answer is 4", stopReason: "max_tokens" }, { text: "2." }] },
    });
    const result = await h.run("question");
    expect(result).toMatchObject({ status: "success", finishReason: "stop", answer: "The answer is 42." });
    const second = h.provider.requests[1]?.request;
    expect(second?.maxOutputTokens).toBe(8192);
    expect(h.provider.requests[0]?.request.maxOutputTokens).toBeUndefined();
    expect(second?.messages.slice(-2)).toEqual([
      { role: "assistant", parts: [{ type: "text", text: "The answer is 4" }] },
      { role: "user", content: CONTINUE_NOTE },
    ]);
    expect(h.of("warning").map((w) => w.data.code)).toContain("max_tokens");
  });

  test("cut twice ends truncated (a limit, exit 5) with the partial answer", async () => {
    h = await harness({
      specs: [root()],
      script: {
        queue: [
          { text: "Part one, ", stopReason: "max_tokens" },
          { text: "part two", stopReason: "max_tokens" },
        ],
      },
    });
    const result = await h.run("question");
    expect(result).toMatchObject({
      status: "limit",
      finishReason: "truncated",
      answer: "Part one, part two",
    });
    expect(exitCodeFor(result)).toBe(5);
    expect(h.provider.requests).toHaveLength(2);
  });

  test("a tool call cut mid-arguments is never run", async () => {
    h = await harness({
      specs: [root()],
      script: {
        queue: [
          {
            text: "Reading.",
            toolCalls: [{ name: "read_file", rawArguments: '{"path": "secr' }],
            stopReason: "max_tokens",
          },
          { toolCalls: [{ name: "read_file", arguments: { path: "a.txt" } }] },
          { text: "done" },
        ],
      },
    });
    await writeFile(path.join(h.dir, "a.txt"), "alpha");
    const result = await h.run("read a");
    expect(result.finishReason).toBe("stop");
    const started = h.of("tool_start").map((e) => e.data.args);
    expect(started).toEqual([{ path: "a.txt" }]);
    const second = h.provider.requests[1]?.request.messages ?? [];
    // The cut call is not in the history sent back: only the text survives.
    expect(second.some((m) => m.role === "assistant" && m.parts.some((p) => p.type === "tool_call"))).toBe(
      false,
    );
  });

  test("a complete answer after a continuation resets the count: a later cut is continued again", async () => {
    h = await harness({
      specs: [root()],
      script: {
        queue: [
          { text: "a", stopReason: "max_tokens" },
          { toolCalls: [{ name: "read_file", arguments: { path: "x" } }] },
          { text: "b", stopReason: "max_tokens" },
          { text: "c" },
        ],
      },
    });
    const result = await h.run("q");
    expect(result).toMatchObject({ finishReason: "stop", answer: "bc" });
  });
});

describe("pause", () => {
  test("the paused content goes back unchanged and the model continues", async () => {
    h = await harness({
      specs: [root()],
      script: { queue: [{ text: "Searching", stopReason: "pause" }, { text: " found it." }] },
    });
    const result = await h.run("q");
    expect(result).toMatchObject({ status: "success", finishReason: "stop", answer: "Searching found it." });
    const second = h.provider.requests[1]?.request.messages ?? [];
    expect(second.at(-1)).toEqual({ role: "assistant", parts: [{ type: "text", text: "Searching" }] });
  });

  test("a paused reply that calls tools is an ordinary tool turn", async () => {
    h = await harness({
      specs: [root()],
      script: {
        queue: [
          { toolCalls: [{ name: "read_file", arguments: { path: "a.txt" } }], stopReason: "pause" },
          { text: "read it" },
        ],
      },
    });
    await writeFile(path.join(h.dir, "a.txt"), "alpha");
    const result = await h.run("q");
    expect(result).toMatchObject({ finishReason: "stop", answer: "read it" });
    expect(h.of("tool_end").map((e) => e.data.isError)).toEqual([false]);
  });

  test(`more than ${MAX_PAUSE_RESENDS} pauses in a row end truncated`, async () => {
    h = await harness({
      specs: [root()],
      script: { fallback: () => ({ text: ".", stopReason: "pause" }) },
    });
    const result = await h.run("q");
    expect(result).toMatchObject({ status: "limit", finishReason: "truncated" });
    expect(h.provider.requests).toHaveLength(MAX_PAUSE_RESENDS + 1);
  });
});

describe("context_window", () => {
  const read = (p: string) => ({ toolCalls: [{ name: "read_file", arguments: { path: p } }] });

  test("old tool results are elided and the turn retried once", async () => {
    h = await harness({
      specs: [root()],
      script: {
        queue: [
          read("big.txt"),
          read("small.txt"),
          { text: "cut", stopReason: "context_window" },
          { text: "ok" },
        ],
      },
    });
    await writeFile(path.join(h.dir, "big.txt"), "x".repeat(4000));
    await writeFile(path.join(h.dir, "small.txt"), "y");
    const result = await h.run("q");
    expect(result).toMatchObject({ status: "success", finishReason: "stop", answer: "ok" });
    const retried = h.provider.requests[3]?.request.messages ?? [];
    const results = retried.filter((m) => m.role === "tool").map((m) => (m.role === "tool" ? m.content : ""));
    expect(results[0]).toStartWith("[elided:");
    expect(results[1]).toContain("y");
    // The cut reply is not kept.
    expect(
      retried.some(
        (m) => m.role === "assistant" && m.parts.some((p) => p.type === "text" && p.text === "cut"),
      ),
    ).toBe(false);
  });

  test("nothing to elide ends context_window (a limit, exit 5)", async () => {
    h = await harness({
      specs: [root()],
      script: { queue: [{ text: "partial", stopReason: "context_window" }] },
    });
    const result = await h.run("q");
    expect(result).toMatchObject({ status: "limit", finishReason: "context_window", answer: "" });
    expect(exitCodeFor(result)).toBe(5);
    expect(h.provider.requests).toHaveLength(1);
  });

  test("full again after compacting ends context_window", async () => {
    h = await harness({
      specs: [root()],
      script: {
        queue: [
          read("big.txt"),
          read("small.txt"),
          { stopReason: "context_window" },
          { text: "still too big", stopReason: "context_window" },
        ],
      },
    });
    await writeFile(path.join(h.dir, "big.txt"), "x".repeat(4000));
    await writeFile(path.join(h.dir, "small.txt"), "y");
    const result = await h.run("q");
    expect(result).toMatchObject({
      status: "limit",
      finishReason: "context_window",
      answer: "still too big",
    });
  });
});

describe("malformed_call", () => {
  test("the turn is retried once with a note to the model", async () => {
    h = await harness({
      specs: [root()],
      script: { queue: [{ stopReason: "malformed_call" }, { text: "fine" }] },
    });
    const result = await h.run("q");
    expect(result).toMatchObject({ status: "success", finishReason: "stop", answer: "fine" });
    expect(h.provider.requests[1]?.request.messages.at(-1)).toEqual({
      role: "user",
      content: MALFORMED_NOTE,
    });
  });

  test("malformed twice ends malformed_call (a failure, exit 1)", async () => {
    h = await harness({
      specs: [root()],
      script: { queue: [{ stopReason: "malformed_call" }, { stopReason: "malformed_call" }] },
    });
    const result = await h.run("q");
    expect(result).toMatchObject({ status: "failure", finishReason: "malformed_call" });
    expect(exitCodeFor(result)).toBe(1);
  });
});

test("refusal ends with finish reason refusal and exit 1, never a success", async () => {
  h = await harness({
    specs: [root()],
    script: { queue: [{ text: "I can't help with that.", stopReason: "refusal" }] },
  });
  const result = await h.run("q");
  expect(result).toMatchObject({
    status: "failure",
    finishReason: "refusal",
    answer: "I can't help with that.",
  });
  expect(exitCodeFor(result)).toBe(1);
});
