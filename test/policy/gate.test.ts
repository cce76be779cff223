import { describe, expect, test } from "bun:test";
import {
  type AgentEvent,
  type AgentIdentity,
  type ApprovalDecision,
  ApprovalNeededError,
  type ApprovalRequest,
  CallCannotApply,
} from "../../src/kernel/index.ts";
import { flagApprover, flagReason, scriptedApprover } from "../../src/policy/approvers.ts";
import { ApprovalGate, type GateCheck, sessionGrantRules } from "../../src/policy/gate.ts";
import { patternMatches } from "../../src/policy/match.ts";
import { parseRule } from "../../src/policy/rules.ts";
import type { PolicyRequest } from "../../src/policy/types.ts";

const ROOT: AgentIdentity = { agent: "root", name: "root", depth: 0 };
const CHILD: AgentIdentity = { agent: "root/code-editor#1", name: "code-editor", parent: "root", depth: 1 };
const signal = new AbortController().signal;

function exec(command: string, who: AgentIdentity = ROOT): GateCheck {
  const request: PolicyRequest = { tool: "exec", targets: [command], readOnly: false, sensitive: false };
  return { who, tool: "exec", args: { command }, request, preview: async () => command };
}

function write(path: string, sensitive = false): GateCheck {
  const request: PolicyRequest = { tool: "write_file", targets: [path], readOnly: false, sensitive };
  return {
    who: ROOT,
    tool: "write_file",
    args: { path, content: "x" },
    request,
    preview: async () => `+++ ${path}`,
  };
}

function counter(): () => string {
  let n = 0;
  return () => `req-${++n}`;
}

describe("ApprovalGate", () => {
  test("deny rules refuse without asking; allow rules pass without asking", async () => {
    const approver = scriptedApprover([]);
    const events: AgentEvent[] = [];
    const gate = new ApprovalGate({
      rules: [parseRule("exec:rm *", "deny", "user"), parseRule("exec:ls", "allow", "user")],
      approver,
      emit: (e) => events.push(e),
      newId: counter(),
    });
    const denied = await gate.check(exec("rm -rf x"), signal);
    expect(denied).toMatchObject({
      allowed: false,
      verdict: { effect: "deny", rule: { text: "exec:rm *" } },
    });
    if (!denied.allowed) {
      expect(denied.message).toStartWith(
        "DENIED: this action was not performed: exec rm -rf x. Why: the policy denies it: deny rule exec:rm *.",
      );
      // No allow rule can beat a deny rule, so none is suggested.
      expect(denied.denial).toEqual({
        decidedBy: "rule",
        rule: "exec:rm *",
        reason: "the policy denies it: deny rule exec:rm *",
        suggestedAllow: [],
      });
    }
    expect(await gate.check(exec("ls"), signal)).toMatchObject({
      allowed: true,
      verdict: { effect: "allow" },
    });
    expect(approver.requests).toEqual([]);
    expect(events.map((e) => [e.kind, e.data])).toEqual([
      ["approval_decision", { id: "req-1", decision: { kind: "deny" }, source: "rule", rule: "exec:rm *" }],
    ]);
  });

  test("ask builds a request, emits request then decision, and allows once", async () => {
    const approver = scriptedApprover([{ kind: "once" }]);
    const events: AgentEvent[] = [];
    const gate = new ApprovalGate({ rules: [], approver, emit: (e) => events.push(e), newId: counter() });
    const outcome = await gate.check(exec("npm test", CHILD), signal);
    expect(outcome).toMatchObject({ allowed: true, verdict: { effect: "allow" } });
    const expected: ApprovalRequest = {
      id: "req-1",
      agent: "root/code-editor#1",
      agentName: "code-editor",
      tool: "exec",
      args: { command: "npm test" },
      preview: "npm test",
      sessionRule: "exec:npm test",
      sessionRules: ["exec:npm test"],
      what: "run npm test",
      target: "npm test",
      reason: "default: exec asks (npm test)",
    };
    expect(approver.requests).toEqual([expected]);
    expect(events.map((e) => e.kind)).toEqual(["approval_request", "approval_decision"]);
    expect(events[0]).toMatchObject({
      agent: "root/code-editor#1",
      parent: "root",
      depth: 1,
      data: { request: expected },
    });
    expect(events[1]!.data).toEqual({ id: "req-1", decision: { kind: "once" }, source: "user" });
    // "once" grants nothing: the same call asks again.
    await expect(gate.check(exec("npm test"), signal)).rejects.toThrow("no decision left");
  });

  test("a session grant makes the identical call pass without asking, and nothing wider", async () => {
    const approver = scriptedApprover([{ kind: "session" }, { kind: "deny" }]);
    const events: AgentEvent[] = [];
    const gate = new ApprovalGate({ rules: [], approver, emit: (e) => events.push(e), newId: counter() });
    expect((await gate.check(exec("ls *.ts"), signal)).allowed).toBe(true);
    expect(events[1]!.data).toEqual({
      id: "req-1",
      decision: { kind: "session" },
      source: "user",
      rule: "exec:ls \\*.ts",
    });
    expect(gate.sessionRules.map((r) => r.text)).toEqual(["exec:ls \\*.ts"]);
    expect(await gate.check(exec("ls *.ts"), signal)).toMatchObject({
      allowed: true,
      verdict: { reason: expect.stringContaining("allowed for this session") },
    });
    expect(approver.requests).toHaveLength(1);
    // The grant is literal: the glob in it does not widen it.
    expect((await gate.check(exec("ls a.ts; rm b.ts"), signal)).allowed).toBe(false);
    expect(approver.requests).toHaveLength(2);
  });

  test("deny and deny_feedback reach the model's message", async () => {
    const approver = scriptedApprover([
      { kind: "deny" },
      { kind: "deny_feedback", feedback: "use src/b.ts instead" },
    ]);
    const gate = new ApprovalGate({ rules: [], approver });
    const first = await gate.check(write("src/a.ts"), signal);
    expect(first).toMatchObject({
      allowed: false,
      denial: { decidedBy: "user", reason: "the user said no", suggestedAllow: ["write_file:src/a.ts"] },
    });
    if (!first.allowed)
      expect(first.message).toStartWith("DENIED: this action was not performed: write_file src/a.ts.");
    const second = await gate.check(write("src/a.ts"), signal);
    expect(second).toMatchObject({
      allowed: false,
      verdict: { effect: "deny" },
      message:
        "DENIED: this action was not performed: write_file src/a.ts. Why: the user said no, with feedback: use src/b.ts instead. Nothing was changed or run. Do not say or imply that it was done; tell the user it was not done.",
    });
  });

  test("one prompt at a time: the second approver call starts only after the first resolves", async () => {
    const log: string[] = [];
    const releases: (() => void)[] = [];
    const approver = scriptedApprover(async (request) => {
      log.push(`start ${request.args.command}`);
      await new Promise<void>((resolve) => releases.push(resolve));
      log.push(`end ${request.args.command}`);
      return { kind: "once" } satisfies ApprovalDecision;
    });
    const gate = new ApprovalGate({ rules: [], approver });
    const child = gate.child();
    const a = gate.check(exec("make a"), signal);
    const b = child.check(exec("make b", CHILD), signal);
    await Bun.sleep(10);
    expect(log).toEqual(["start make a"]);
    releases.shift()!();
    await a;
    await Bun.sleep(10);
    expect(log).toEqual(["start make a", "end make a", "start make b"]);
    releases.shift()!();
    expect((await b).allowed).toBe(true);
  });

  test("a call that waited is allowed without a prompt when the earlier answer granted it", async () => {
    let release = () => {};
    const approver = scriptedApprover(async () => {
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      return { kind: "session" } satisfies ApprovalDecision;
    });
    const gate = new ApprovalGate({ rules: [], approver });
    const a = gate.check(exec("npm test"), signal);
    const b = gate.child().check(exec("npm test", CHILD), signal);
    await Bun.sleep(10);
    release();
    expect((await a).allowed).toBe(true);
    expect((await b).allowed).toBe(true);
    expect(approver.requests).toHaveLength(1);
  });

  test("--on-ask fail comes back as a stop outcome (a value, not a throw) and the queue keeps working", async () => {
    const gate = new ApprovalGate({ rules: [], approver: flagApprover("fail") });
    const outcome = await gate.check(exec("rm x"), signal);
    expect(outcome).toMatchObject({ allowed: false, stop: true });
    expect(outcome.allowed ? "" : outcome.message).toBe(
      "approval needed for exec (rm x) and --on-ask is fail; to allow it: --allow 'exec:rm x'",
    );
    expect(await gate.check(exec("rm y"), signal)).toMatchObject({ allowed: false, stop: true });
  });

  test("children share grants but bring no rules of their own", async () => {
    const gate = new ApprovalGate({
      rules: [parseRule("exec:rm *", "deny", "user")],
      approver: scriptedApprover([{ kind: "session" }]),
    });
    const child = gate.child();
    expect((await child.check(exec("npm test", CHILD), signal)).allowed).toBe(true);
    expect(gate.sessionRules.map((r) => r.text)).toEqual(["exec:npm test"]);
    expect((await gate.check(exec("npm test"), signal)).allowed).toBe(true);
    expect((await child.check(exec("rm x", CHILD), signal)).allowed).toBe(false);
  });

  test("an aborted signal stops a waiting call before it prompts", async () => {
    const approver = scriptedApprover([{ kind: "once" }]);
    const gate = new ApprovalGate({ rules: [], approver });
    const controller = new AbortController();
    controller.abort(new Error("stop"));
    await expect(gate.check(exec("make"), controller.signal)).rejects.toThrow("stop");
    expect(approver.requests).toEqual([]);
  });

  test("a preview that fails for another reason still asks, with the target instead", async () => {
    const approver = scriptedApprover([{ kind: "once" }]);
    const gate = new ApprovalGate({ rules: [], approver });
    const check = { ...write("src/a.ts"), preview: async () => Promise.reject(new Error("diff failed")) };
    expect((await gate.check(check, signal)).allowed).toBe(true);
    expect(approver.requests[0]!.preview).toBe("write_file src/a.ts\n(preview unavailable: diff failed)");
  });

  /** An edit of `path` whose preview finds it cannot apply (edit_file's old_string not in the file). */
  function cannotApply(path: string, sensitive = false): GateCheck {
    return {
      ...write(path, sensitive),
      tool: "edit_file",
      request: { tool: "edit_file", targets: [path], readOnly: false, sensitive },
      preview: async () => Promise.reject(new CallCannotApply(`old_string not found in ${path}`)),
    };
  }

  test("an edit that cannot apply is not asked about: its failure goes back, nothing is allowed", async () => {
    const approver = scriptedApprover([]);
    const events: AgentEvent[] = [];
    const gate = new ApprovalGate({ rules: [], approver, emit: (e) => events.push(e) });
    const outcome = await gate.check(cannotApply("src/a.ts"), signal);
    expect(outcome).toMatchObject({
      allowed: false,
      cannotApply: true,
      message: "old_string not found in src/a.ts",
    });
    expect(approver.requests).toEqual([]);
    expect(events.map((e) => e.kind)).toEqual([]);
  });

  test("an edit that cannot apply under a deny rule is denied as before; under an allow rule it is allowed (it runs and fails there)", async () => {
    const approver = scriptedApprover([]);
    const denied = new ApprovalGate({ rules: [parseRule("edit_file:src/**", "deny", "user")], approver });
    expect(await denied.check(cannotApply("src/a.ts"), signal)).toMatchObject({
      allowed: false,
      denial: { decidedBy: "rule", rule: "edit_file:src/**" },
    });
    const allowed = new ApprovalGate({ rules: [parseRule("edit_file:src/**", "allow", "user")], approver });
    expect((await allowed.check(cannotApply("src/a.ts"), signal)).allowed).toBe(true);
    expect(approver.requests).toEqual([]);
  });

  test("an edit that cannot apply still asks where the agent may not read the file (the failure would tell what is in it)", async () => {
    // A sensitive path (agent config, .git) and a path whose reads ask: the prompt, as before.
    const approver = scriptedApprover([{ kind: "deny" }, { kind: "deny" }]);
    const gate = new ApprovalGate({ rules: [parseRule("read_file:private/**", "ask", "user")], approver });
    expect((await gate.check(cannotApply(".agent/config.yaml", true), signal)).allowed).toBe(false);
    expect((await gate.check(cannotApply("private/notes.md"), signal)).allowed).toBe(false);
    expect(approver.requests.map((r) => r.preview)).toEqual([
      "edit_file .agent/config.yaml\n(preview unavailable: old_string not found in .agent/config.yaml)",
      "edit_file private/notes.md\n(preview unavailable: old_string not found in private/notes.md)",
    ]);
  });

  test("sensitive paths always ask, and the grant is for that exact path", async () => {
    const approver = scriptedApprover([{ kind: "session" }]);
    const gate = new ApprovalGate({ rules: [parseRule("write_file:**", "allow", "user")], approver });
    expect((await gate.check(write(".git/config", true), signal)).allowed).toBe(true);
    expect(approver.requests[0]!.reason).toContain("sensitive");
    expect((await gate.check(write(".git/config", true), signal)).allowed).toBe(true);
    expect(approver.requests).toHaveLength(1);
  });
});

describe("flagApprover", () => {
  const request: ApprovalRequest = {
    id: "1",
    agent: "root",
    agentName: "root",
    tool: "exec",
    args: {},
    preview: "rm x",
    sessionRule: "exec:rm x",
    reason: "default: exec asks",
  };

  test("deny, allow and fail", async () => {
    expect(await flagApprover("deny").decide(request, signal)).toEqual({ kind: "deny" });
    expect(await flagApprover("allow").decide(request, signal)).toEqual({ kind: "once" });
    await expect(flagApprover("fail").decide(request, signal)).rejects.toBeInstanceOf(ApprovalNeededError);
  });

  test("through the gate, --on-ask deny tells the model the run cannot ask and reports source flag", async () => {
    const events: AgentEvent[] = [];
    const gate = new ApprovalGate({ rules: [], approver: flagApprover("deny"), emit: (e) => events.push(e) });
    const outcome = await gate.check(exec("rm x"), signal);
    expect(outcome).toMatchObject({
      allowed: false,
      message:
        "DENIED: this action was not performed: exec rm x. Why: it needs approval and this run denies what it cannot ask (--on-ask deny). " +
        "Nothing was changed or run. Do not say or imply that it was done; tell the user it was not done. " +
        "The user can allow it by running again with --allow 'exec:rm x'.",
      denial: { decidedBy: "on_ask", suggestedAllow: ["exec:rm x"] },
    });
    expect(events[1]!.data).toMatchObject({ decision: { kind: "deny" }, source: "flag" });
  });

  test("nobody gave --on-ask: the reason says no terminal can ask, or that there is no terminal to ask on", async () => {
    const none = new ApprovalGate({ rules: [], approver: flagApprover("deny", "default") });
    const denied = await none.check(exec("rm x"), signal);
    expect(denied).toMatchObject({ allowed: false, denial: { decidedBy: "default" } });
    if (!denied.allowed) expect(denied.denial?.reason).toContain("no terminal can ask");
    const piped = new ApprovalGate({ rules: [], approver: flagApprover("deny", "no_terminal") });
    const refused = await piped.check(exec("rm x"), signal);
    expect(refused).toMatchObject({ allowed: false, denial: { decidedBy: "no_terminal" } });
    if (!refused.allowed) {
      expect(refused.denial?.reason).toContain("no terminal to ask on");
      expect(refused.message).not.toContain("--on-ask");
    }
  });

  test("flagReason: an explicit --on-ask, stdin a terminal with stdout piped, or no terminal at all", () => {
    expect(flagReason({ explicit: true, stdinIsTTY: true, stdoutIsTTY: false })).toBe("on_ask");
    expect(flagReason({ explicit: false, stdinIsTTY: true, stdoutIsTTY: false })).toBe("no_terminal");
    expect(flagReason({ explicit: false, stdinIsTTY: false, stdoutIsTTY: false })).toBe("default");
    expect(flagReason({ explicit: false, stdinIsTTY: false, stdoutIsTTY: true })).toBe("default");
  });
});

describe("sessionGrantRules", () => {
  test("escaped targets match exactly themselves", () => {
    for (const path of ["src/@a.ts", "a+b.ts", "!x", "a(b),c.ts", "{a}.ts", "[x].ts", "we ird*?.ts"]) {
      const request: PolicyRequest = {
        tool: "write_file",
        targets: [path],
        readOnly: false,
        sensitive: false,
      };
      const [rule] = sessionGrantRules(request);
      expect(patternMatches("write_file", rule!.pattern!, path)).toBe(true);
      expect(patternMatches("write_file", rule!.pattern!, "other.ts")).toBe(false);
    }
  });

  test("a call without targets grants nothing for exec and file tools, the bare tool for agents", () => {
    const none = (tool: string): PolicyRequest => ({ tool, targets: [], readOnly: false, sensitive: false });
    expect(sessionGrantRules(none("exec"))).toEqual([]);
    expect(sessionGrantRules(none("write_file"))).toEqual([]);
    expect(sessionGrantRules(none("code-editor")).map((r) => r.text)).toEqual(["code-editor"]);
  });

  test("one literal rule per target", () => {
    const patch: PolicyRequest = {
      tool: "apply_patch",
      targets: ["./src/a.ts", "src/[b].ts"],
      readOnly: false,
      sensitive: false,
    };
    expect(sessionGrantRules(patch).map((r) => r.text)).toEqual([
      "edit_file:src/a.ts",
      "edit_file:src/\\[b\\].ts",
    ]);
    const fetch: PolicyRequest = {
      tool: "fetch",
      targets: ["HTTPS://X.TEST/a"],
      readOnly: false,
      sensitive: false,
    };
    expect(sessionGrantRules(fetch).map((r) => r.text)).toEqual(["fetch:https://x.test/a"]);
  });
});

describe("--on-ask fail names the target, never a diff header", () => {
  test("an edit names its path and the rule to allow it", async () => {
    const gate = new ApprovalGate({ rules: [], approver: flagApprover("fail") });
    const outcome = await gate.check(
      {
        who: ROOT,
        tool: "edit_file",
        args: { path: "./greet.js", old_string: "a", new_string: "b" },
        request: { tool: "edit_file", targets: ["greet.js"], readOnly: false, sensitive: false },
        preview: async () => "--- a/greet.js\n+++ b/greet.js\n@@ -1 +1 @@\n-a\n+b",
      },
      signal,
    );
    expect(outcome).toMatchObject({
      allowed: false,
      stop: true,
      message:
        "approval needed for edit_file (greet.js) and --on-ask is fail; to allow it: --allow edit_file:greet.js",
      denial: { decidedBy: "on_ask", suggestedAllow: ["edit_file:greet.js"] },
    });
  });

  test("a patch names every path it touches, under the edit_file rule name", async () => {
    const gate = new ApprovalGate({ rules: [], approver: flagApprover("fail") });
    const patch =
      "*** Begin Patch\n*** Update File: greet.js\n@@\n-a\n+b\n*** Add File: b.js\n+x\n*** End Patch";
    const outcome = await gate.check(
      {
        who: ROOT,
        tool: "apply_patch",
        args: { patch },
        request: { tool: "apply_patch", targets: ["greet.js", "b.js"], readOnly: false, sensitive: false },
        preview: async () => "--- a/greet.js\n+++ b/greet.js",
      },
      signal,
    );
    expect(outcome.allowed ? "" : outcome.message).toBe(
      "approval needed for apply_patch (greet.js, b.js) and --on-ask is fail; to allow it: --allow edit_file:greet.js --allow edit_file:b.js",
    );
  });
});
