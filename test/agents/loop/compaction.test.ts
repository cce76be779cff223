import { afterEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { applyCompaction, chooseTail, summaryMessage } from "../../../src/agents/loop/context/compaction.ts";
import { resumeFrom } from "../../../src/agents/loop/context/resume.ts";
import { messageChars } from "../../../src/agents/loop/guards.ts";
import type { Message, ModelRequest } from "../../../src/kernel/index.ts";
import type { ScriptedTurn } from "../../support/scripted-provider.ts";
import { assertNoOrphans, type Harness, harness, spec } from "../harness.ts";

const SUMMARY =
  "## Goal\nread files\n## Decisions\nnone\n## Files touched\nf1.txt..f5.txt read\n## Open threads\nnone";
const SUMMARIZER_KEY = "You compact the earlier part";

/** Reported input tokens: 500 per message sent, so the window (10,000) fills after a few turns. */
const usageOf = (request: ModelRequest) => ({
  inputTokens: request.messages.length * 250,
  cacheReadTokens: request.messages.length * 250,
});

/** A root that reads f1..f{calls}.txt one per turn, then answers "done". */
function reader(calls: number): (request: ModelRequest, index: number) => ScriptedTurn {
  let n = 0;
  return (request) => {
    n++;
    const usage = usageOf(request);
    if (n > calls) return { text: "done", usage };
    return { toolCalls: [{ name: "read_file", arguments: { path: `f${n}.txt` } }], usage };
  };
}

let h: Harness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

async function setup(calls: number, summarizer: ScriptedTurn[] = [{ text: SUMMARY }]): Promise<Harness> {
  const made = await harness({
    specs: [spec("root", ["read_file"], { model: "good" })],
    contextWindow: 10_000,
    script: { agents: { [SUMMARIZER_KEY]: summarizer }, fallback: reader(calls) },
  });
  for (let n = 1; n <= calls; n++) writeFileSync(path.join(made.dir, `f${n}.txt`), `content of file ${n}\n`);
  return made;
}

const rootRequests = (harnessed: Harness): ModelRequest[] =>
  harnessed.provider.requests.filter((r) => r.request.model.id === "test-good").map((r) => r.request);

describe("compaction in the loop", () => {
  test("a long conversation crosses the threshold, compacts once with one fast-tier request, goes on and finishes", async () => {
    h = await setup(10);
    const result = await h.run("read the files");
    expect(result).toMatchObject({ status: "success", finishReason: "stop", answer: "done" });

    // Exactly one summariser request, on the fast tier, holding the older turns as a transcript.
    const summaries = h.provider.requests.filter((r) => r.key === SUMMARIZER_KEY);
    expect(summaries).toHaveLength(1);
    expect(summaries[0]?.request.model.id).toBe("test-fast");
    const sent = JSON.stringify(summaries[0]?.request.messages ?? []);
    for (const n of [1, 2, 3, 4, 5]) expect(sent).toContain(`content of file ${n}`);
    expect(sent).not.toContain("content of file 6");

    const compactions = h.of("compaction");
    expect(compactions).toHaveLength(1);
    expect(compactions[0]?.data).toMatchObject({
      reason: "threshold",
      model: "test-fast",
      kept: 8,
      inputTokens: 8500,
    });

    // After it: the goal and the summary first, then the recent turns unchanged; no call without its result.
    const requests = rootRequests(h);
    expect(requests).toHaveLength(11);
    const after = requests[9]?.messages ?? [];
    expect(after[0]?.role).toBe("user");
    expect((after[0] as { content: string }).content).toStartWith("Goal: read the files");
    expect((after[0] as { content: string }).content).toContain(SUMMARY);
    expect(after).toHaveLength(9);
    expect(after.slice(1, 7)).toEqual(requests[8]?.messages.slice(-6) ?? []);
    for (const request of requests) assertNoOrphans(request.messages);

    // Every request extends the one before, except the one right after the compaction.
    const extends_ = requests.slice(1).map((r, i) => {
      const previous = requests[i]?.messages ?? [];
      return JSON.stringify(r.messages.slice(0, previous.length)) === JSON.stringify(previous);
    });
    expect(extends_.map((ok, i) => (ok ? "" : String(i + 1))).filter(Boolean)).toEqual(["9"]);

    // The transcript (message events) holds the whole conversation; a resume rebuilds the compacted one.
    const messages = h.of("message").map((e) => e.data.message);
    expect(messages.filter((m) => m.role === "tool")).toHaveLength(10);
    const resumed = resumeFrom(h.events).messages;
    expect(resumed).toEqual([...(requests[10]?.messages ?? []), messages.at(-1) as Message]);
  });

  test("a failed summary is a warning, tried once; the run goes on and finishes", async () => {
    h = await setup(10, [{ error: { kind: "overloaded", message: "busy" } }]);
    const result = await h.run("read the files");
    expect(result.finishReason).toBe("stop");
    expect(h.of("compaction")).toHaveLength(0);
    const warning = h.of("warning").find((w) => w.data.code === "compaction");
    expect(warning?.data.message).toContain("compaction failed (overloaded: busy)");
    // One attempt only: the failure turns compaction off for the run.
    expect(h.provider.requests.filter((r) => r.key === SUMMARIZER_KEY)).toHaveLength(1);
  });

  test("a threshold of 1 never compacts this run; compactFirst compacts before the first call", async () => {
    h = await setup(10);
    await h.run("read the files", { limits: { compactThreshold: 1 } });
    expect(h.of("compaction")).toHaveLength(0);
    const history = h.of("message").map((e) => e.data.message);
    h.events.length = 0;
    h.provider.requests.length = 0;
    await h.run("and again", { history, compactFirst: true });
    expect(h.of("compaction")[0]?.data.reason).toBe("requested");
    expect(h.provider.requests[0]?.key).toBe(SUMMARIZER_KEY);
  });
});

describe("one compaction ends under the threshold", () => {
  /** A provider that counts twice what the loop estimates (4 characters a token). */
  const overCounted = (request: ModelRequest) => ({
    inputTokens: Math.ceil((2 * JSON.stringify(request.messages).length) / 4),
  });
  const nineReads = (prefix: string): ScriptedTurn["toolCalls"] =>
    [1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => ({ name: "read_file", arguments: { path: `${prefix}${n}.txt` } }));

  test("a last turn of nine large tool results, counted two-fold: its results are cut, compacted once", async () => {
    let n = 0;
    h = await harness({
      specs: [spec("root", ["read_file"], { model: "good" })],
      contextWindow: 100_000,
      script: {
        agents: { [SUMMARIZER_KEY]: [{ text: SUMMARY }, { text: SUMMARY }] },
        fallback: (request) => {
          n++;
          const usage = overCounted(request);
          if (n <= 3) return { toolCalls: nineReads(["a", "b", "c"][n - 1] as string), usage };
          return { text: "done", usage };
        },
      },
    });
    // Different contents (identical results would read as a stall), 200 lines of 50 characters each.
    for (const prefix of ["a", "b", "c"])
      for (let i = 1; i <= 9; i++)
        writeFileSync(path.join(h.dir, `${prefix}${i}.txt`), `${prefix}${i}${"x".repeat(47)}\n`.repeat(200));
    const result = await h.run("read them all");
    expect(result).toMatchObject({ finishReason: "stop", answer: "done" });

    const compactions = h.of("compaction");
    expect(compactions).toHaveLength(1);
    expect(compactions[0]?.data.kept).toBe(10);
    expect(compactions[0]?.data.resultLimit).toBeGreaterThan(1_000);
    // Every request after the compaction is under the threshold (0.8 of 100,000) by the provider's own count.
    const requests = rootRequests(h);
    const after = requests.slice(3);
    expect(after).toHaveLength(1);
    for (const request of after) expect(overCounted(request).inputTokens).toBeLessThan(80_000);
    const kept = after[0]?.messages ?? [];
    assertNoOrphans(kept);
    expect(kept.filter((m) => m.role === "tool")).toHaveLength(9);
    for (const m of kept)
      if (m.role === "tool") expect(m.content).toContain("cut when the conversation was compacted");
    // A resume rebuilds the same cut tail.
    const messages = h.of("message").map((e) => e.data.message);
    expect(resumeFrom(h.events).messages).toEqual([...kept, messages.at(-1) as Message]);
  });
});

describe("a full context window", () => {
  test("is met with a compaction first (reason context_window), then the turn is retried", async () => {
    let n = 0;
    h = await harness({
      specs: [spec("root", ["read_file"], { model: "good" })],
      script: {
        agents: { [SUMMARIZER_KEY]: [{ text: SUMMARY }] },
        fallback: () => {
          n++;
          if (n <= 6) return { toolCalls: [{ name: "read_file", arguments: { path: `f${n}.txt` } }] };
          return n === 7 ? { text: "cut", stopReason: "context_window" } : { text: "done" };
        },
      },
    });
    for (let i = 1; i <= 6; i++) writeFileSync(path.join(h.dir, `f${i}.txt`), `file ${i}\n`);
    const result = await h.run("read");
    expect(result).toMatchObject({ finishReason: "stop", answer: "done" });
    expect(h.of("compaction").map((e) => e.data.reason)).toEqual(["context_window"]);
    const retried = rootRequests(h).at(-1)?.messages ?? [];
    expect((retried[0] as { content: string }).content).toContain(SUMMARY);
    // Nothing was elided: the summary made the room.
    expect(retried.some((m) => m.role === "tool" && m.content.startsWith("[elided:"))).toBe(false);
  });
});

describe("compaction pieces", () => {
  const call = (n: number): Message[] => [
    {
      role: "assistant",
      parts: [
        { type: "reasoning", text: "hm", signature: "sig", provider: "anthropic" },
        { type: "tool_call", id: `c${n}`, name: "read_file", arguments: {} },
      ],
    },
    { role: "tool", toolCallId: `c${n}`, toolName: "read_file", content: `r${n}`, isError: false },
  ];
  const history: Message[] = [{ role: "user", content: "Goal: x" }, ...[1, 2, 3, 4, 5, 6].flatMap(call)];

  /** The loop's estimate of some messages, in tokens (4 characters a token). */
  const tokensOf = (messages: readonly Message[]) => messages.reduce((n, m) => n + messageChars(m), 0) / 4;

  test("the cut falls on an assistant message, so the kept tail holds every call with its result", () => {
    // A budget of the last four turns keeps them; a little less keeps three; all six leave nothing to summarise.
    expect(chooseTail(history, tokensOf(history.slice(5)))).toEqual({ cut: 5 });
    expect(chooseTail(history, tokensOf(history.slice(5)) - 1)).toEqual({ cut: 7 });
    expect(chooseTail(history, tokensOf(history.slice(1)))).toBeUndefined();
    const compacted = applyCompaction(history, summaryMessage(history[0], "S"), history.length - 5);
    assertNoOrphans(compacted);
    expect(compacted).toHaveLength(9);
  });

  test("a last turn larger than the budget keeps its calls with results cut; a call larger still is summarised", () => {
    const big = (n: number): Message => ({
      role: "tool",
      toolCallId: `c${n}`,
      toolName: "read_file",
      content: "y".repeat(20_000),
      isError: false,
    });
    const calls: Message = {
      role: "assistant",
      parts: [1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => ({
        type: "tool_call" as const,
        id: `c${n}`,
        name: "read_file",
        arguments: {},
      })),
    };
    const turn = [calls, ...[1, 2, 3, 4, 5, 6, 7, 8, 9].map(big)];
    const nine: Message[] = [...history, ...turn];
    const budget = 10_000;
    const choice = chooseTail(nine, budget);
    expect(choice?.cut).toBe(history.length);
    const kept = applyCompaction(nine, summaryMessage(nine[0], "S"), turn.length, choice?.resultLimit);
    assertNoOrphans(kept);
    expect(tokensOf(kept.slice(1))).toBeLessThanOrEqual(budget);
    // A call whose own arguments pass the budget: nothing can be kept, the whole turn is summarised.
    const huge: Message = {
      role: "assistant",
      parts: [{ type: "tool_call", id: "w", name: "write_file", arguments: { content: "z".repeat(50_000) } }],
    };
    const written: Message = {
      role: "tool",
      toolCallId: "w",
      toolName: "write_file",
      content: "ok",
      isError: false,
    };
    expect(chooseTail([...history, huge, written], budget)).toEqual({ cut: history.length + 2 });
  });

  test("old thinking blocks are dropped from the kept tail; the open tool-use cycle keeps its own", () => {
    const compacted = applyCompaction(history, summaryMessage(history[0], "S"), 4);
    const kinds = compacted.flatMap((m) =>
      m.role === "assistant" ? [m.parts.map((p) => p.type).join(",")] : [],
    );
    expect(kinds).toEqual(["tool_call", "reasoning,tool_call"]);
    // Once the cycle is closed by a user message, its thinking is old too.
    const closed = applyCompaction(
      [...history, { role: "user", content: "next" }],
      summaryMessage(history[0], "S"),
      5,
    );
    const closedKinds = closed.flatMap((m) =>
      m.role === "assistant" ? [m.parts.map((p) => p.type).join(",")] : [],
    );
    expect(closedKinds).toEqual(["tool_call", "tool_call"]);
  });

  test("a second compaction keeps the original goal once, not the earlier summary", () => {
    const first = summaryMessage(history[0], "first summary");
    const second = summaryMessage(first, "second summary");
    expect(second.content).toStartWith("Goal: x\n\n<conversation_summary>");
    expect(second.content).not.toContain("first summary");
  });
});
