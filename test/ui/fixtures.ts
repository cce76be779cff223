import type { AgentUsageReport } from "../../src/kernel/conversation/usage.ts";
import { emptyUsage, type Usage } from "../../src/kernel/index.ts";
import type { ApprovalRequest } from "../../src/kernel/run-events/approvals.ts";
import { type AgentEvent, type AgentIdentity, makeEvent } from "../../src/kernel/run-events/events.ts";
import type { FinishedRun } from "../../src/ui/result.ts";

export const root: AgentIdentity = { agent: "root", name: "root", depth: 0 };
export const editor: AgentIdentity = {
  agent: "root/code-editor#1",
  name: "code-editor",
  parent: "root",
  depth: 1,
};
export const reader: AgentIdentity = {
  agent: "root/code-editor#1/code-reader#1",
  name: "code-reader",
  parent: "root/code-editor#1",
  depth: 2,
};

const usage = { ...emptyUsage(), inputTokens: 100, outputTokens: 20 };

/** A small run: root delegates to code-editor, which delegates to code-reader, edits a file, then answers. */
export function sampleRun(): AgentEvent[] {
  return [
    makeEvent(root, "session_start", {
      sessionId: "s-1",
      goal: "fix the bug",
      agentName: "root",
      model: "m-1",
      cwd: "/w",
    }),
    makeEvent(root, "plan_start", { turn: 1, model: "m-1" }),
    makeEvent(root, "text_delta", { delta: "Let me delegate." }),
    makeEvent(root, "plan_end", {
      turn: 1,
      stopReason: "tool_use",
      usage,
      text: "Let me delegate.",
      toolCalls: [{ id: "a1", name: "code-editor" }],
    }),
    makeEvent(root, "act_start", {
      id: "a1",
      child: editor.agent,
      childName: "code-editor",
      goal: "fix src/x.ts",
    }),
    makeEvent(editor, "act_start", {
      id: "a2",
      child: reader.agent,
      childName: "code-reader",
      goal: "find the bug",
    }),
    makeEvent(reader, "tool_start", { id: "t1", tool: "grep", args: { pattern: "TODO", path: "src" } }),
    makeEvent(reader, "tool_end", {
      id: "t1",
      tool: "grep",
      isError: false,
      summary: "3 matches",
      display: "",
      durationMs: 5,
    }),
    makeEvent(editor, "act_end", {
      id: "a2",
      child: reader.agent,
      childName: "code-reader",
      status: "success",
      finishReason: "stop",
      answer: "line 3",
    }),
    makeEvent(editor, "tool_start", {
      id: "t2",
      tool: "edit_file",
      args: { path: "src/x.ts", old_string: "a", new_string: "b" },
    }),
    makeEvent(editor, "approval_request", { request: approvalRequest("r1") }),
    makeEvent(editor, "approval_decision", { id: "r1", decision: { kind: "deny" }, source: "flag" }),
    makeEvent(editor, "tool_end", {
      id: "t2",
      tool: "edit_file",
      isError: true,
      summary: "denied",
      display: "",
      durationMs: 1,
    }),
    makeEvent(editor, "warning", { message: "stalled once" }),
    makeEvent(root, "act_end", {
      id: "a1",
      child: editor.agent,
      childName: "code-editor",
      status: "success",
      finishReason: "stop",
      answer: "could not edit",
    }),
    makeEvent(root, "plan_end", {
      turn: 2,
      stopReason: "end_turn",
      usage,
      text: "Done: the fix.",
      toolCalls: [],
    }),
  ];
}

export function approvalRequest(id: string, overrides: Partial<ApprovalRequest> = {}): ApprovalRequest {
  return {
    id,
    agent: editor.agent,
    agentName: "code-editor",
    tool: "edit_file",
    args: { path: "src/x.ts", old_string: "const a = 1;", new_string: "const a = 2;" },
    preview: "--- a/src/x.ts\n+++ b/src/x.ts\n@@ -1 +1 @@\n-const a = 1;\n+const a = 2;\n",
    sessionRule: "edit_file:src/x.ts",
    reason: "edit_file asks by default",
    ...overrides,
  };
}

/** A root's one-call turn on `model`: the session starts, the model answers `text` without tool calls. */
export function answeredTurn(model: string, usage: Usage, text: string): AgentEvent[] {
  return [
    makeEvent(root, "session_start", { sessionId: "s", goal: "hi", agentName: "root", model, cwd: "/w" }),
    makeEvent(root, "plan_start", { turn: 1, model }),
    makeEvent(root, "plan_end", { turn: 1, stopReason: "end_turn", usage, text, toolCalls: [] }),
  ];
}

export function report(who: AgentIdentity, costUsd: number, subtreeCost: number): AgentUsageReport {
  const r: AgentUsageReport = {
    agent: who.agent,
    name: who.name,
    depth: who.depth,
    model: "m-1",
    usage,
    costUsd,
    subtree: {
      usage: { ...usage, inputTokens: usage.inputTokens * 3, outputTokens: usage.outputTokens * 3 },
      costUsd: subtreeCost,
    },
  };
  if (who.parent !== undefined) r.parent = who.parent;
  return r;
}

export function finishedRun(overrides: Partial<FinishedRun> = {}): FinishedRun {
  return {
    status: "success",
    finishReason: "stop",
    answer: "Done: the fix.",
    usage: [report(root, 0.01, 0.03), report(editor, 0.01, 0.02), report(reader, 0.01, 0.01)],
    sessionId: "s-1",
    exitCode: 0,
    ...overrides,
  };
}

/** A sink collecting what a renderer writes. */
export class MemorySink {
  chunks: string[] = [];
  write(chunk: string, callback?: (error?: Error | null) => void): boolean {
    this.chunks.push(chunk);
    callback?.();
    return true;
  }
  get text(): string {
    return this.chunks.join("");
  }
  get lines(): string[] {
    return this.text.split("\n").filter((line) => line !== "");
  }
}

export const tick = (ms = 30): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
