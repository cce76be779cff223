import { afterEach, describe, expect, test } from "bun:test";
import { cleanup, render } from "ink-testing-library";
import type { ApprovalDecision, ApprovalRequest } from "../../../../src/kernel/run-events/approvals.ts";
import { ApprovalGate } from "../../../../src/policy/gate.ts";
import { buildRuleSet } from "../../../../src/policy/rules.ts";
import { shellWord } from "../../../../src/policy/shell-quote.ts";
import { ApprovalPrompt } from "../../../../src/ui/ink/prompts/approval-prompt.tsx";
import { tone } from "../../../../src/ui/ink/theme.ts";
import { approvalRequest, tick } from "../../fixtures.ts";

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

/** The request the real gate puts to the approver for `call` (its approver records it and says no). */
async function gateRequest(call: Parameters<ApprovalGate["check"]>[0]): Promise<ApprovalRequest> {
  const seen: ApprovalRequest[] = [];
  const approver = {
    decide: async (request: ApprovalRequest): Promise<ApprovalDecision> => {
      seen.push(request);
      return { kind: "deny" };
    },
  };
  await new ApprovalGate({ rules: buildRuleSet({}), approver }).check(call, new AbortController().signal);
  return seen[0]!;
}

/** The box's text as one line: borders dropped, wrapped lines joined (Ink wraps at spaces). */
function boxText(frame: string | undefined): string {
  return (frame ?? "").replace(/[│╭╮╰╯─]/g, " ").replace(/\s+/g, " ");
}

/** The box's lines, each without its border and padding. */
function boxLines(frame: string | undefined): string[] {
  return (frame ?? "").split("\n").map((line) => line.replace(/^[│\s]+|[│\s]+$/g, ""));
}

const WHO = { agent: "root/code-editor#1", name: "code-editor", parent: "root", depth: 1 };

describe("approval prompt: what is being decided, and the rule a pastes", () => {
  test("exec: the command in words instead of the default's fragment; a shows a pasteable rule", async () => {
    const command = `node -e "import('./greet.js').then(m=>console.log(m.greet('x')))"`;
    const request = await gateRequest({
      who: WHO,
      tool: "exec",
      args: { command },
      request: { tool: "exec", targets: [command], readOnly: false, sensitive: false },
      preview: async () => command,
    });
    const frame = boxText(mount(request).lastFrame());
    expect(frame).toContain(`Allow: run ${command}`);
    expect(frame).not.toContain("default: exec asks");
    // The exact command line is granted; the box says so in words, then prints the rule as written in
    // config and after --allow, on a line of its own: not shell-quoted (no '\''), not wrapped.
    expect(request.sessionRules).toEqual([`exec:${command}`]);
    expect(frame).toContain("a adds this rule for the session (run this exact command):");
    const lines = boxLines(mount(request).lastFrame());
    expect(lines).toContain(`exec:${command}`);
    expect(frame).not.toContain(shellWord(`exec:${command}`));
    expect(frame).not.toContain("'\\''");
  });

  test("an edit: the path, never a diff header", async () => {
    const request = await gateRequest({
      who: WHO,
      tool: "edit_file",
      args: { path: "./greet.js", old_string: "a", new_string: "b" },
      request: { tool: "edit_file", targets: ["greet.js"], readOnly: false, sensitive: false },
      preview: async () => "--- a/greet.js\n+++ b/greet.js\n@@ -1 +1 @@\n-a\n+b\n",
    });
    const frame = boxText(mount(request).lastFrame());
    expect(frame).toContain("Allow: edit greet.js");
    expect(frame).toContain("a adds this rule for the session (edit greet.js):");
    expect(boxLines(mount(request).lastFrame())).toContain("edit_file:greet.js");
  });

  test("a patch lists what it does; a reason other than the default is kept", async () => {
    const patch =
      "*** Begin Patch\n*** Update File: greet.js\n@@\n-a\n+b\n*** Add File: b.js\n+x\n*** End Patch";
    const seen: ApprovalRequest[] = [];
    const approver = {
      decide: async (request: ApprovalRequest): Promise<ApprovalDecision> => {
        seen.push(request);
        return { kind: "deny" };
      },
    };
    const rules = buildRuleSet({ user: { ask: ["edit_file:*.js"] } });
    await new ApprovalGate({ rules, approver }).check(
      {
        who: WHO,
        tool: "apply_patch",
        args: { patch },
        request: { tool: "apply_patch", targets: ["greet.js", "b.js"], readOnly: false, sensitive: false },
        preview: async () => "--- a/greet.js\n+++ b/greet.js\n",
      },
      new AbortController().signal,
    );
    const frame = boxText(mount(seen[0]).lastFrame());
    expect(frame).toContain("Allow: apply patch: update greet.js, add b.js (ask rule edit_file:*.js)");
    expect(frame).toContain("a adds these rules for the session (edit greet.js; edit b.js):");
    const lines = boxLines(mount(seen[0]).lastFrame());
    expect(lines).toContain("edit_file:greet.js");
    expect(lines).toContain("edit_file:b.js");
  });
});
