/** An applied edit keeps its diff in the history, collapsed to a few lines (issue 21 item 7). */
import { afterEach, describe, expect, test } from "bun:test";
import { cleanup, render } from "ink-testing-library";
import { makeEvent } from "../../../../src/kernel/run-events/events.ts";
import { collapseDiff } from "../../../../src/ui/format.ts";
import { diffLineTone, HistoryLine } from "../../../../src/ui/ink/history/history-line.tsx";
import { initialState, reduce } from "../../../../src/ui/ink/state/state.ts";
import { tone } from "../../../../src/ui/ink/theme.ts";
import { editor } from "../../fixtures.ts";

afterEach(() => cleanup());

/** What edit_file's display is: a unified diff (src/tools/files/diff.ts). */
const DIFF = [
  "--- a/src/x.ts",
  "+++ b/src/x.ts",
  "@@ -1,9 +1,9 @@",
  " keep",
  "-one",
  "-two",
  "-three",
  "-four",
  "+ONE",
  "+TWO",
  "+THREE",
  "+FOUR",
  " keep",
  "",
].join("\n");

function editedState(display: string, isError = false) {
  let state = initialState();
  for (const event of [
    makeEvent(editor, "tool_start", {
      id: "e1",
      tool: "edit_file",
      args: { path: "src/x.ts", old_string: "one", new_string: "ONE" },
    }),
    makeEvent(editor, "tool_end", {
      id: "e1",
      tool: "edit_file",
      isError,
      summary: "edited src/x.ts",
      display,
      durationMs: 2,
    }),
  ])
    state = reduce(state, { type: "event", event });
  return state;
}

describe("collapseDiff", () => {
  test("keeps the first six changed lines and counts the rest; headers and context are not changes", () => {
    expect(collapseDiff(DIFF)).toEqual({
      lines: ["-one", "-two", "-three", "-four", "+ONE", "+TWO"],
      more: 2,
    });
  });

  test("a short diff is whole; text that is no diff gives nothing", () => {
    const short = "--- a/a\n+++ b/a\n@@ -1 +1 @@\n-x\n+y\n";
    expect(collapseDiff(short)).toEqual({ lines: ["-x", "+y"], more: 0 });
    expect(collapseDiff("edited src/x.ts")).toBeUndefined();
    expect(collapseDiff("Read a.ts (3 lines, from line 1)")).toBeUndefined();
  });

  test("a removed line whose text starts with -- is a change, not a header", () => {
    const diff = "--- a/a\n+++ b/a\n@@ -1,2 +1,1 @@\n--- old rule\n x\n";
    expect(collapseDiff(diff)).toEqual({ lines: ["--- old rule"], more: 0 });
  });
});

describe("an applied edit in the history", () => {
  test("the tool line carries its collapsed diff; a failed edit carries none", () => {
    const [item] = editedState(DIFF).history;
    expect(item?.diff).toEqual({ lines: ["-one", "-two", "-three", "-four", "+ONE", "+TWO"], more: 2 });
    expect(editedState(DIFF, true).history[0]?.diff).toBeUndefined();
  });

  test("on screen: the changed lines under the tool line, then … N more lines", () => {
    const [item] = editedState(DIFF).history;
    if (!item) throw new Error("no history item");
    const { lastFrame } = render(<HistoryLine item={item} colors={false} />);
    const frame = lastFrame() ?? "";
    expect(frame).toContain("✓ edit_file src/x.ts — edited src/x.ts (2ms)");
    expect(frame).toContain("  -one\n");
    expect(frame).toContain("  +TWO\n");
    expect(frame).toContain("  … 2 more lines");
    expect(frame).not.toContain("+THREE");
    expect(frame).not.toContain("@@");
    expect(frame).not.toContain("\u001b[");
  });

  test("with colors, + lines are green and - lines red; under NO_COLOR no color at all", () => {
    // ink-testing-library renders without a color terminal, so the choice of color is checked directly.
    expect(diffLineTone("+ONE")).toBe("green");
    expect(diffLineTone("-one")).toBe("red");
    expect(tone(true, diffLineTone("+ONE"))).toBe("green");
    expect(tone(false, diffLineTone("+ONE"))).toBeUndefined();
  });
});
