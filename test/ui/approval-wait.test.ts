import { describe, expect, test } from "bun:test";
import { type AgentEvent, type EventDataMap, type EventKind, makeEvent } from "../../src/kernel/events.ts";
import { initialState, reduce } from "../../src/ui/ink/state.ts";
import { editor } from "./fixtures.ts";

/** An event of the editor sub-agent at `time` (ms after an arbitrary start). */
function at<K extends EventKind>(time: number, kind: K, data: EventDataMap[K]): AgentEvent<K> {
  return { ...makeEvent(editor, kind, data), time: 1_000_000 + time };
}

describe("a tool's time on screen is the time it ran", () => {
  test("an approved call's time leaves out the wait at the prompt; an allowed one keeps its whole time", () => {
    const events: AgentEvent[] = [
      at(0, "tool_start", { id: "c1", tool: "exec", args: { command: "make" } }),
      // The user answers yes after 4 s; the command then runs for 0.5 s.
      at(4000, "approval_decision", { id: "a1", decision: { kind: "once" }, source: "user" }),
      at(4500, "tool_end", {
        id: "c1",
        tool: "exec",
        isError: false,
        summary: "exit code 0",
        display: "",
        durationMs: 4500,
      }),
      // A call a rule allowed never waited: its whole time is shown.
      at(5000, "tool_start", { id: "c2", tool: "exec", args: { command: "ls" } }),
      at(5300, "tool_end", {
        id: "c2",
        tool: "exec",
        isError: false,
        summary: "",
        display: "",
        durationMs: 300,
      }),
    ];
    let state = initialState();
    for (const event of events) state = reduce(state, { type: "event", event });
    const tools = state.history.filter((item) => item.kind === "tool").map((item) => item.text);
    expect(tools).toEqual(["exec $ make — exit code 0 (500ms)", "exec $ ls (300ms)"]);
  });
});
