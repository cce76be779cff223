/** Reading a hook's stdout (exit 0): plain text is a note; Claude Code's JSON output may block. */
import { expect, test } from "bun:test";
import { readHookOutput } from "../../../src/agents/hooks/hook-output.ts";

test("plain text (and JSON that is not an object) is a note; nothing is nothing", () => {
  expect(readHookOutput("  remember the style guide \n")).toEqual({ note: "remember the style guide" });
  expect(readHookOutput('["deny"]')).toEqual({ note: '["deny"]' });
  expect(readHookOutput('{"decision": "block", oops')).toEqual({ note: '{"decision": "block", oops' });
  expect(readHookOutput("")).toEqual({});
});

test("the newer form: permissionDecision deny blocks with its reason; additionalContext is the note", () => {
  const out = JSON.stringify({
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
      permissionDecisionReason: "Destructive command blocked by hook",
      additionalContext: "use git clean",
    },
  });
  expect(readHookOutput(out)).toEqual({
    block: "Destructive command blocked by hook",
    note: "use git clean",
  });
});

test("the older form: decision block with its reason; a block without a reason still blocks", () => {
  expect(readHookOutput('{"decision":"block","reason":"no rm here"}')).toEqual({ block: "no rm here" });
  expect(readHookOutput('{"hookSpecificOutput":{"permissionDecision":"deny"}}')).toEqual({ block: "" });
});

test("allow, ask and defer approve nothing: no block, and only additionalContext becomes a note", () => {
  for (const decision of ["allow", "ask", "defer"]) {
    const out = JSON.stringify({
      hookSpecificOutput: { permissionDecision: decision, permissionDecisionReason: "fine by me" },
    });
    expect(readHookOutput(out)).toEqual({});
  }
  expect(readHookOutput('{"decision":"approve","reason":"ok"}')).toEqual({});
  const context = JSON.stringify({
    hookSpecificOutput: { permissionDecision: "allow", additionalContext: "lint ok" },
  });
  expect(readHookOutput(context)).toEqual({ note: "lint ok" });
});
