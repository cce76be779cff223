import { describe, expect, test } from "bun:test";
import { render } from "ink-testing-library";
import {
  type AgentEvent,
  type EventDataMap,
  type EventKind,
  makeEvent,
} from "../../../../src/kernel/run-events/events.ts";
import { initialState, reduce } from "../../../../src/ui/ink/state/state.ts";
import type { ActiveAgent } from "../../../../src/ui/ink/state/state-types.ts";
import { LiveArea } from "../../../../src/ui/ink/views/live-area.tsx";
import { editor } from "../../fixtures.ts";

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
        // The loop leaves the wait at the prompt out of the call's time (invoke.ts, approval-wait.test.ts).
        durationMs: 500,
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

describe("streamed reasoning is labelled and never runs into the answer", () => {
  test("reasoning shows as `thinking:` in the live area; the answer that follows starts afresh", () => {
    let state = initialState();
    const delta = (kind: "reasoning_delta" | "text_delta", text: string) => {
      state = reduce(state, { type: "event", event: at(0, kind, { delta: text }) });
    };
    delta("reasoning_delta", "Weighing the options");
    const [thinking] = state.agents;
    expect(thinking).toMatchObject({ streamTail: "Weighing the options", thinking: true });
    delta("text_delta", "The answer");
    expect(state.agents[0]).toMatchObject({ streamTail: "The answer", thinking: false });
    const frame = render(<LiveArea agents={[thinking as ActiveAgent]} colors={false} columns={80} now={0} />);
    expect(frame.lastFrame()).toContain("thinking: Weighing the options");
    frame.unmount();
  });
});
