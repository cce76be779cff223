import { expect, test } from "bun:test";
import { liveOutput } from "../../../src/agents/loop/tool-calls/live-output.ts";
import { type AgentEvent, lastLines, OutputTail, TAIL_LINE_CHARS } from "../../../src/kernel/index.ts";

test("tool_output events: the first chunk at once, then at most ten a second, each with the latest lines", () => {
  const events: AgentEvent[] = [];
  let clock = 1000;
  const push = liveOutput(
    { id: "c1", name: "exec", arguments: {} },
    { who: { agent: "root", name: "root", depth: 0 }, emit: (e) => events.push(e), now: () => clock },
  );
  push("a\nb\n");
  clock += 50;
  push("c\n"); // within 100 ms of the last event: held
  clock += 60;
  push("d"); // 110 ms after it: sent, with everything so far
  expect(events.map((e) => (e.kind === "tool_output" ? [e.data.lines, e.data.lineCount] : []))).toEqual([
    [["a", "b"], 2],
    [["a", "b", "c", "d"], 4],
  ]);
});

test("the tail keeps the last five non-empty lines, escape sequences removed, long lines cut, in bounded memory", () => {
  const tail = new OutputTail();
  for (let i = 1; i <= 10_000; i++) tail.push(`line ${i}\n`);
  tail.push(`\u001b[31mred\u001b[0m\r\n\n${"x".repeat(500)}`);
  expect(tail.lineCount).toBe(10_003);
  const lines = tail.lines();
  expect(lines.slice(0, 4)).toEqual(["line 9998", "line 9999", "line 10000", "red"]);
  expect(lines[4]).toHaveLength(TAIL_LINE_CHARS);
  expect(lastLines("one\n\n  \ntwo\n", 5)).toEqual(["one", "two"]);
});
