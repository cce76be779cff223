import { describe, expect, test } from "bun:test";
import { type AgentEvent, makeEvent } from "../../src/kernel/index.ts";
import { Redactor } from "../../src/kernel/text/redact.ts";
import { redactingEmit } from "../../src/session/redacting-emit.ts";

const KEY = "sk-ant-api03-abcdefghijklmnopqrstuvwxyz";
const root = { agent: "root", name: "root", depth: 0 };
const child = { agent: "root/code-editor#1", name: "code-editor", parent: "root", depth: 1 };

function collect() {
  const seen: AgentEvent[] = [];
  const emit = redactingEmit(new Redactor([KEY]), (event) => seen.push(event));
  const deltas = (agent = "root") =>
    seen
      .filter((e): e is AgentEvent<"text_delta"> => e.kind === "text_delta" && e.agent === agent)
      .map((e) => e.data.delta)
      .join("");
  return { seen, emit, deltas };
}

/** The root's turn ending with no text of its own (the streamed deltas are the text). */
const rootPlanEnd = () =>
  makeEvent(root, "plan_end", { turn: 1, stopReason: "end", usage: emptyUsage(), text: "", toolCalls: [] });

describe("redactingEmit", () => {
  test("a key split across streamed chunks never reaches the sink, and the text is otherwise intact", () => {
    const { seen, emit, deltas } = collect();
    for (const delta of ["your key is sk-ant-api03-abc", "defghijklmnop", "qrstuvwxyz, keep it safe"]) {
      emit(makeEvent(root, "text_delta", { delta }));
    }
    emit(rootPlanEnd());
    expect(JSON.stringify(seen)).not.toContain("abcdefghijklmnop");
    expect(deltas()).toBe("your key is [REDACTED], keep it safe");
  });

  test("the held word is released before that agent's next event, keeping order", () => {
    const { seen, emit } = collect();
    emit(makeEvent(root, "text_delta", { delta: "All done" }));
    emit(rootPlanEnd());
    expect(seen.map((e) => (e.kind === "text_delta" ? e.data.delta : e.kind))).toEqual([
      "All ",
      "done",
      "plan_end",
    ]);
  });

  test("agents are buffered independently; other events pass through redacted", () => {
    const { seen, emit, deltas } = collect();
    emit(makeEvent(root, "text_delta", { delta: "root says hel" }));
    emit(makeEvent(child, "text_delta", { delta: "child says hi" }));
    emit(makeEvent(child, "warning", { message: `leaked ${KEY}` }));
    expect(deltas("root")).toBe("root says ");
    expect(deltas(child.agent)).toBe("child says hi");
    const warning = seen.find((e) => e.kind === "warning");
    expect(warning?.kind === "warning" && warning.data.message).toBe("leaked [REDACTED]");
    expect(warning?.parent).toBe("root");
  });

  test("a very long run without whitespace is not held forever", () => {
    const { emit, deltas } = collect();
    emit(makeEvent(root, "text_delta", { delta: "x".repeat(2000) }));
    expect(deltas()).toHaveLength(2000);
  });
});

function emptyUsage() {
  return { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 };
}
