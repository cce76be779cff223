import { afterEach, describe, expect, test } from "bun:test";
import { cleanup, render } from "ink-testing-library";
import type { ApprovalDecision } from "../../src/kernel/approvals.ts";
import { ApprovalPrompt } from "../../src/ui/ink/approval-prompt.tsx";
import { tone } from "../../src/ui/ink/theme.ts";
import { approvalRequest, tick } from "./fixtures.ts";

afterEach(() => cleanup());

function mount(request = approvalRequest("r1")) {
  const decisions: ApprovalDecision[] = [];
  let interrupts = 0;
  const app = render(
    <ApprovalPrompt
      request={request}
      colors={false}
      onDecision={(d) => decisions.push(d)}
      onInterrupt={() => {
        interrupts++;
      }}
    />,
  );
  return { ...app, decisions, interrupts: () => interrupts };
}

describe("approval prompt", () => {
  test("names the agent and tool, shows arguments, the diff and the session rule", () => {
    const { lastFrame } = mount();
    const frame = lastFrame() ?? "";
    expect(frame).toContain("code-editor wants to run edit_file");
    expect(frame).toContain("path: src/x.ts");
    expect(frame).toContain("-const a = 1;");
    expect(frame).toContain("+const a = 2;");
    expect(frame).toContain("@@ -1 +1 @@");
    expect(frame).toContain("edit_file:src/x.ts");
    expect(frame).toContain("y yes once");
  });

  test("exec shows the command", () => {
    const { lastFrame } = mount(
      approvalRequest("r2", {
        tool: "exec",
        args: { command: "npm test -- --watch=false" },
        preview: "npm test -- --watch=false",
        sessionRule: "exec:npm test *",
      }),
    );
    expect(lastFrame()).toContain("$ npm test -- --watch=false");
    expect(lastFrame()).not.toContain("command:");
    expect(lastFrame()).toContain("exec:npm test *");
  });

  test("colors only when enabled (NO_COLOR passes colors=false)", () => {
    expect(tone(true, "green")).toBe("green");
    expect(tone(false, "green")).toBeUndefined();
  });

  const keys: [string, ApprovalDecision][] = [
    ["y", { kind: "once" }],
    ["a", { kind: "session" }],
    ["n", { kind: "deny" }],
  ];
  for (const [key, decision] of keys) {
    test(`key ${key} decides ${decision.kind}`, async () => {
      const { stdin, decisions } = mount();
      await tick();
      stdin.write("x"); // not a choice
      stdin.write(key);
      await tick();
      stdin.write(key); // a second press does not decide twice
      await tick();
      expect(decisions).toEqual([decision]);
    });
  }

  test("f asks for feedback; the typed line reaches the decision on Enter", async () => {
    const { stdin, decisions, lastFrame } = mount();
    await tick();
    stdin.write("f");
    await tick();
    expect(lastFrame()).toContain("feedback for the model");
    for (const ch of "use lex") stdin.write(ch);
    await tick();
    stdin.write("\u007f"); // backspace
    await tick();
    stdin.write("t");
    stdin.write(" instead");
    await tick();
    expect(lastFrame()).toContain("use let instead");
    expect(decisions).toEqual([]);
    stdin.write("\r");
    await tick();
    expect(decisions).toEqual([{ kind: "deny_feedback", feedback: "use let instead" }]);
  });

  test("keys typed quickly arrive as one chunk: f and the feedback that follows it are kept", async () => {
    const { stdin, decisions, lastFrame } = mount();
    await tick();
    stdin.write("fuse let");
    await tick();
    expect(lastFrame()).toContain("feedback for the model (Enter sends, Esc goes back): use let");
    stdin.write(" instead\r"); // the last keys and Enter, in one chunk too
    await tick();
    expect(decisions).toEqual([{ kind: "deny_feedback", feedback: "use let instead" }]);
  });

  test("a pasted line in feedback mode stays one line; y, a or n inside a chunk never decide", async () => {
    const { stdin, decisions, lastFrame } = mount();
    await tick();
    stdin.write("yes please");
    stdin.write("any");
    await tick();
    expect(decisions).toEqual([]);
    stdin.write("f");
    await tick();
    stdin.write("first\nsecond");
    await tick();
    expect(lastFrame()).toContain("first second");
    expect(decisions).toEqual([]);
    stdin.write("\r");
    await tick();
    expect(decisions).toEqual([{ kind: "deny_feedback", feedback: "first second" }]);
  });

  test("two chunks before a render decide once", async () => {
    const { stdin, decisions } = mount();
    await tick();
    stdin.write("n");
    stdin.write("y");
    await tick();
    expect(decisions).toEqual([{ kind: "deny" }]);
  });

  test("Ctrl-C interrupts instead of being swallowed by raw mode", async () => {
    const { stdin, interrupts, decisions } = mount();
    await tick();
    stdin.write("\u0003");
    await tick();
    expect(interrupts()).toBe(1);
    expect(decisions).toEqual([]);
  });
});
