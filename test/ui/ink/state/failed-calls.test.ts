/**
 * Failed and refused calls, in the Ink history and the plain progress alike (issue 21 items 3 and 7):
 * a denial is one line with who refused it and why; a sub-agent call with bad arguments, an unknown tool
 * and a tool error each show as a failed line under their agent, with the whole reason.
 */
import { describe, expect, test } from "bun:test";
import { type AgentEvent, makeEvent } from "../../../../src/kernel/run-events/events.ts";
import { initialState, reduce, type UiState } from "../../../../src/ui/ink/state/state.ts";
import { ProgressLines } from "../../../../src/ui/progress-lines.ts";
import { editor, MemorySink, root } from "../../fixtures.ts";

function reduceAll(events: AgentEvent[]): UiState {
  return events.reduce((s, event) => reduce(s, { type: "event", event }), initialState());
}

function progress(events: AgentEvent[]): string[] {
  const stderr = new MemorySink();
  const lines = new ProgressLines({ stderr, colors: false, level: "full" });
  for (const event of events) lines.onEvent(event);
  return stderr.lines;
}

const DENIED =
  "DENIED: this action was not performed: exec rm -rf build. Why: the policy denies it: rule exec:rm *. Nothing was changed or run. Do not say or imply that it was done; tell the user it was not done.";

/** A deny rule refuses an exec call: no approval_request, a decision, then the call's error result. */
function ruleDenial(): AgentEvent[] {
  return [
    makeEvent(editor, "tool_start", { id: "c1", tool: "exec", args: { command: "rm -rf build" } }),
    makeEvent(editor, "approval_decision", {
      id: "g1",
      decision: { kind: "deny" },
      source: "rule",
      rule: "exec:rm *",
    }),
    makeEvent(editor, "tool_end", {
      id: "c1",
      tool: "exec",
      isError: true,
      summary: DENIED.slice(0, 197),
      display: DENIED.slice(0, 197),
      durationMs: 1,
    }),
  ];
}

const BAD_HINTS = "error: invalid arguments for code-reader: `hints` must be a list of strings when given";

/** A delegation whose arguments fail validation: tool_start/tool_end of kind agent and no act_start. */
function badDelegation(): AgentEvent[] {
  return [
    makeEvent(root, "tool_start", {
      id: "d1",
      tool: "code-reader",
      args: { goal: "find the config", hints: "src" },
      kind: "agent",
    }),
    makeEvent(root, "tool_end", {
      id: "d1",
      tool: "code-reader",
      isError: true,
      summary: BAD_HINTS,
      display: BAD_HINTS,
      durationMs: 0,
      kind: "agent",
    }),
  ];
}

const UNKNOWN =
  'error: unknown tool "read_files". Available tools: read_file, grep, glob, exec, edit_file, write_file. Call one of these, or answer without tools.';

function unknownTool(): AgentEvent[] {
  return [
    makeEvent(editor, "tool_start", { id: "u1", tool: "read_files", args: { path: "a.ts" } }),
    makeEvent(editor, "tool_end", {
      id: "u1",
      tool: "read_files",
      isError: true,
      summary: UNKNOWN,
      display: UNKNOWN,
      durationMs: 0,
    }),
  ];
}

describe("a denial is one line with its reason", () => {
  test("Ink: a deny rule's refusal names the call and the rule, and the call's error result adds no line", () => {
    const state = reduceAll(ruleDenial());
    expect(state.history.map((h) => [h.kind, h.depth, h.text, h.ok])).toEqual([
      ["approval", 1, "denied exec $ rm -rf build (by rule exec:rm *)", false],
    ]);
  });

  test("plain progress: the same single line on stderr", () => {
    const lines = progress(ruleDenial());
    expect(lines).toEqual(["    ✗ denied exec $ rm -rf build (by rule exec:rm *)"]);
  });

  test("a sub-agent call refused by a deny rule is named by its agent and goal", () => {
    const events: AgentEvent[] = [
      makeEvent(root, "tool_start", {
        id: "d2",
        tool: "code-editor",
        args: { goal: "edit it" },
        kind: "agent",
      }),
      makeEvent(root, "approval_decision", {
        id: "g2",
        decision: { kind: "deny" },
        source: "rule",
        rule: "code-editor",
      }),
      makeEvent(root, "tool_end", {
        id: "d2",
        tool: "code-editor",
        isError: true,
        summary: "DENIED: this action was not performed: code-editor.",
        display: "",
        durationMs: 0,
        kind: "agent",
      }),
    ];
    expect(reduceAll(events).history.map((h) => h.text)).toEqual([
      "denied code-editor edit it (by rule code-editor)",
    ]);
    expect(progress(events)).toEqual(["  ✗ denied code-editor edit it (by rule code-editor)"]);
  });
});

describe("a failed tool call shows as a failed line under its agent, with the reason", () => {
  test("Ink: a sub-agent call with bad arguments (no child ever started) is a failed line", () => {
    const state = reduceAll(badDelegation());
    expect(state.history.map((h) => [h.kind, h.depth, h.text, h.ok])).toEqual([
      [
        "tool",
        0,
        "code-reader find the config — invalid arguments for code-reader: `hints` must be a list of strings when given",
        false,
      ],
    ]);
  });

  test("plain progress: the same failed line on stderr", () => {
    expect(progress(badDelegation())).toEqual([
      "  ✗ code-reader find the config — invalid arguments for code-reader: `hints` must be a list of strings when given (0ms)",
    ]);
  });

  test("a sub-agent call whose child started and failed is reported by its act lines only", () => {
    const events: AgentEvent[] = [
      makeEvent(root, "tool_start", { id: "d3", tool: "code-reader", args: { goal: "look" }, kind: "agent" }),
      makeEvent(root, "act_start", {
        id: "d3",
        child: "root/code-reader#1",
        childName: "code-reader",
        goal: "look",
      }),
      makeEvent(root, "act_end", {
        id: "d3",
        child: "root/code-reader#1",
        childName: "code-reader",
        status: "failure",
        finishReason: "max_turns",
        answer: "",
      }),
      makeEvent(root, "tool_end", {
        id: "d3",
        tool: "code-reader",
        isError: true,
        summary: "[code-reader did not finish]",
        display: "",
        durationMs: 3,
        kind: "agent",
      }),
    ];
    const texts = reduceAll(events).history.map((h) => h.text);
    expect(texts.filter((t) => t.includes("did not finish"))).toEqual([]);
    expect(progress(events).filter((t) => t.includes("did not finish"))).toEqual([]);
  });

  test("an unknown tool's line carries the whole reason, not cut mid-word at 80 characters", () => {
    const reason = UNKNOWN.replace(/^error: /, "");
    const [item] = reduceAll(unknownTool()).history;
    expect(item?.ok).toBe(false);
    expect(item?.depth).toBe(1);
    expect(item?.text).toBe(`read_files a.ts — ${reason} (0ms)`);
    expect(progress(unknownTool())).toEqual([`    ✗ read_files a.ts — ${reason} (0ms)`]);
  });
});
