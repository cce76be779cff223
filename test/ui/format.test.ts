import { describe, expect, test } from "bun:test";
import { colorsEnabled, palette } from "../../src/ui/ansi.ts";
import {
  describeDecision,
  describeToolCall,
  displayArgs,
  formatCost,
  formatDuration,
  formatTokens,
  oneLine,
} from "../../src/ui/format.ts";
import { approvalRequest } from "./fixtures.ts";

describe("format helpers", () => {
  test("oneLine collapses whitespace and cuts long text", () => {
    expect(oneLine("a\n  b\tc")).toBe("a b c");
    expect(oneLine("x".repeat(50), 10)).toBe(`${"x".repeat(9)}…`);
    expect(oneLine(`short ${" ".repeat(5000)} tail`, 20).endsWith("…")).toBe(true);
  });

  test("describeToolCall names the main argument of each tool", () => {
    expect(describeToolCall("exec", { command: "git status" })).toBe("$ git status");
    expect(describeToolCall("read_file", { path: "src/a.ts", offset: 3 })).toBe("src/a.ts");
    expect(describeToolCall("grep", { pattern: "TODO", path: "src" })).toBe("TODO in src");
    expect(describeToolCall("glob", { pattern: "**/*.ts" })).toBe("**/*.ts");
    expect(describeToolCall("fetch", { url: "https://x.dev" })).toBe("https://x.dev");
    expect(describeToolCall("code-editor", { goal: "fix it", hints: ["a"] })).toBe("fix it");
    const patch = "*** Begin Patch\n*** Update File: a.ts\n@@\n*** Add File: b.ts\n+x\n*** End Patch";
    expect(describeToolCall("apply_patch", { patch })).toBe("a.ts, b.ts");
    expect(describeToolCall("custom", { n: 1 })).toBe('{"n":1}');
  });

  test("displayArgs elides multi-line values with their line count", () => {
    expect(displayArgs({ path: "a.ts", content: "1\n2\n3" })).toEqual([
      ["path", "a.ts"],
      ["content", "1 2 3 (3 lines)"],
    ]);
  });

  test("describeDecision says who decided, the scope and the rule a session grant adds", () => {
    const request = approvalRequest("r1", { tool: "exec", args: { command: "git status" } });
    expect(
      describeDecision({ id: "x", decision: { kind: "deny" }, source: "rule", rule: "exec:rm *" }, undefined),
    ).toEqual({ denied: true, text: "denied the call (by rule exec:rm *)" });
    expect(
      describeDecision(
        { id: "r1", decision: { kind: "session" }, source: "user", rule: "exec:git status" },
        request,
      ).text,
    ).toBe("approved exec $ git status (for this session, adds exec:git status, by user)");
    expect(
      describeDecision(
        { id: "r1", decision: { kind: "deny_feedback", feedback: "use git diff" }, source: "user" },
        request,
      ).text,
    ).toBe("denied exec $ git status (by user): use git diff");
    expect(describeDecision({ id: "r1", decision: { kind: "once" }, source: "flag" }, request).text).toBe(
      "approved exec $ git status (once, by --on-ask)",
    );
    // Nobody gave --on-ask: the line names the missing terminal, not the flag.
    const deny = { kind: "deny" } as const;
    expect(describeDecision({ id: "r2", decision: deny, source: "flag", why: "default" }, request).text).toBe(
      "denied exec $ git status (by default: no terminal to ask)",
    );
    expect(
      describeDecision({ id: "r3", decision: deny, source: "flag", why: "no_terminal" }, request).text,
    ).toBe("denied exec $ git status (by no terminal to ask on)");
  });

  test("numbers read well", () => {
    expect(formatDuration(450)).toBe("450ms");
    expect(formatDuration(1234)).toBe("1.2s");
    expect(formatDuration(184_000)).toBe("3m04s");
    expect(formatTokens(950)).toBe("950");
    expect(formatTokens(12_345)).toBe("12.3k");
    expect(formatCost(0.01234)).toBe("$0.0123");
    expect(formatCost(2.5)).toBe("$2.50");
  });

  test("ANSI only when the stream is a TTY and NO_COLOR is unset", () => {
    expect(colorsEnabled(true, false)).toBe(true);
    expect(colorsEnabled(true, true)).toBe(false);
    expect(colorsEnabled(false, false)).toBe(false);
    expect(palette(false).red("x")).toBe("x");
    expect(palette(true).red("x")).toBe("\u001b[31mx\u001b[39m");
  });
});
