import { afterEach, describe, expect, test } from "bun:test";
import { cleanup } from "ink-testing-library";
import { makeEvent } from "../../../../src/kernel/run-events/events.ts";
import { InkApprover } from "../../../../src/ui/ink/prompts/ink-approver.ts";
import type { HistoryItem } from "../../../../src/ui/ink/state/state.ts";
import { UiStore } from "../../../../src/ui/ink/state/store.ts";
import { approvalRequest, finishedRun, root, sampleRun, tick } from "../../fixtures.ts";
import { renderRunApp } from "../../mount-app.tsx";

afterEach(() => cleanup());

function mount() {
  const store = new UiStore({ flushMs: 5 });
  const approver = new InkApprover(store);
  const renders = new Map<number, number>();
  const app = renderRunApp(store, {
    approver,
    onHistoryRender: (item: HistoryItem) => renders.set(item.key, (renders.get(item.key) ?? 0) + 1),
  });
  return { ...app, store, approver, renders };
}

describe("Ink app", () => {
  test("finished items render exactly once across many flushes; the live tree shows active agents", async () => {
    const { store, renders, lastFrame, frames } = mount();
    const events = sampleRun();
    for (const event of events.slice(0, 7)) {
      store.dispatch({ type: "event", event });
      await tick(8); // one flush per event or so
    }
    const live = lastFrame() ?? "";
    expect(live).toContain("code-reader");
    expect(live).toContain("grep TODO in src");
    for (const event of events.slice(7)) {
      store.dispatch({ type: "event", event });
      await tick(8);
    }
    for (let i = 0; i < 20; i++) {
      store.dispatch({ type: "event", event: makeEvent(root, "warning", { message: `w${i}` }) });
      if (i % 3 === 0) await tick(8);
    }
    await tick(20);
    expect(renders.size).toBe(events.length - 6 + 20); // items: see the reducer test (10) + 20 warnings
    for (const [key, count] of renders) expect([key, count]).toEqual([key, 1]);
    // several generations were printed, each only with its new items
    expect(store.getSnapshot().historyGeneration).toBeGreaterThan(5);
    expect(store.getSnapshot().history.length).toBeLessThan(10);
    const all = frames.join("");
    expect(all).toContain("▸ root: delegating to code-editor: fix src/x.ts");
    expect(all).toContain("    ✓ grep TODO in src — 3 matches (5ms)".trimStart());
  });

  test("the live area shows only the last lines of streaming text; the status line has model, tokens, cost", async () => {
    const store = new UiStore({ flushMs: 5, costOf: () => 0.25 });
    const app = renderRunApp(store, { showCost: true });
    const events = sampleRun();
    for (const event of events.slice(0, 4)) store.dispatch({ type: "event", event });
    store.dispatch({ type: "event", event: makeEvent(root, "plan_start", { turn: 2, model: "m-2" }) });
    for (let i = 1; i <= 6; i++) {
      store.dispatch({
        type: "event",
        event: makeEvent(root, "text_delta", { delta: `streamed line ${i}\n` }),
      });
    }
    await tick();
    const frame = app.lastFrame() ?? "";
    expect(frame).toContain("streamed line 6");
    expect(frame).toContain("streamed line 4");
    expect(frame).not.toContain("streamed line 3");
    expect(frame).toMatch(/m-2 · 120 tokens · \$0\.2500 · \d/);
  });

  test("the approver shows one prompt at a time and resolves each request by id", async () => {
    const { approver, stdin, lastFrame } = mount();
    const controller = new AbortController();
    const first = approver.decide(approvalRequest("r1"), controller.signal);
    const second = approver.decide(
      approvalRequest("r2", { tool: "exec", args: { command: "ls" }, preview: "ls", sessionRule: "exec:ls" }),
      controller.signal,
    );
    await tick();
    expect(lastFrame()).toContain("edit_file");
    expect(lastFrame()).toContain("(1 more waiting)");
    stdin.write("a");
    expect(await first).toEqual({ kind: "session" });
    await tick();
    expect(lastFrame()).toContain("$ ls");
    stdin.write("f");
    await tick();
    stdin.write("no");
    await tick();
    stdin.write("\r");
    expect(await second).toEqual({ kind: "deny_feedback", feedback: "no" });
    await tick();
    expect(lastFrame()).not.toContain("wants to run");
    expect(approver.pendingCount).toBe(0);
  });

  test("an aborted request leaves the queue and rejects", async () => {
    const { approver, lastFrame } = mount();
    const controller = new AbortController();
    const pending = approver.decide(approvalRequest("r1"), controller.signal);
    await tick();
    expect(lastFrame()).toContain("wants to run");
    controller.abort(new Error("interrupted"));
    await expect(pending).rejects.toThrow("interrupted");
    await tick();
    expect(lastFrame()).not.toContain("wants to run");
    expect(approver.answer("r1", { kind: "once" })).toBe(false);
    const already = new AbortController();
    already.abort();
    await expect(approver.decide(approvalRequest("r3"), already.signal)).rejects.toBeDefined();
  });

  test("the summary shows status, session and usage per agent", async () => {
    const { store, lastFrame } = mount();
    for (const event of sampleRun()) store.dispatch({ type: "event", event });
    store.finish(finishedRun(), Date.now());
    await tick();
    const frame = lastFrame() ?? "";
    expect(frame).toContain("■ success (stop)");
    expect(frame).toContain("session s-1");
    expect(frame).toMatch(/root m-1 120 tokens · \$0\.0100 \(with sub-agents \$0\.0300\)/);
    expect(frame).toMatch(/ {6}code-reader m-1/);
  });

  test("a running tool's live line does not count the wait at its approval prompt", async () => {
    const store = new UiStore({ flushMs: 5 });
    const app = renderRunApp(store, {});
    const minuteAgo = (event: ReturnType<typeof makeEvent>) => ({ ...event, time: Date.now() - 60_000 });
    const [start] = sampleRun();
    if (start !== undefined) store.dispatch({ type: "event", event: minuteAgo(start) });
    const args = { path: "greet.js", old_string: "a", new_string: "b" };
    const call = makeEvent(root, "tool_start", { id: "c1", tool: "edit_file", args });
    store.dispatch({ type: "event", event: minuteAgo(call) });
    const request = approvalRequest("r1", { agent: root.agent, agentName: "root", args });
    store.dispatch({ type: "event", event: makeEvent(root, "approval_request", { request }) });
    await tick(20);
    const waiting = (app.lastFrame() ?? "").split("\n").find((line) => line.includes("edit_file greet.js"));
    expect(waiting).toContain("edit_file greet.js (waiting for approval)");
    const decision = { id: "r1", decision: { kind: "once" as const }, source: "user" as const };
    store.dispatch({ type: "event", event: makeEvent(root, "approval_decision", decision) });
    await tick(20);
    const frame = app.lastFrame() ?? "";
    // The clock starts at the answer: well under the minute the call has existed.
    expect(frame).toMatch(/^ +edit_file greet\.js \((\d+ms|\d\.\ds)\)$/m);
    expect(frame).not.toContain("edit_file greet.js (1m");
  });

  test("a session that is not kept (--no-session-persistence) shows no session id", async () => {
    const { store, lastFrame } = mount();
    for (const event of sampleRun()) store.dispatch({ type: "event", event });
    store.finish(finishedRun({ sessionSaved: false }), Date.now());
    await tick();
    const frame = lastFrame() ?? "";
    expect(frame).toContain("■ success (stop)");
    expect(frame).not.toContain("session s-1");
  });

  test("the summary ends with the command that continues the session", async () => {
    const { store, lastFrame } = mount();
    for (const event of sampleRun()) store.dispatch({ type: "event", event });
    store.finish(finishedRun({ resumeCommand: "agent run --resume ab12cd" }), Date.now());
    await tick();
    expect(lastFrame()).toContain("continue: agent run --resume ab12cd");
    expect(lastFrame()).not.toContain('ab12cd "');
  });

  test("the summary lists denials and says on its status line that they did not happen", async () => {
    const { store, lastFrame } = mount();
    const denial = {
      agent: "root",
      agentName: "root",
      tool: "exec",
      target: "npm test",
      decidedBy: "on_ask" as const,
      reason: "it needs approval and this run denies what it cannot ask (--on-ask deny)",
      suggestedAllow: ["exec:npm test"],
    };
    const activity = { turns: 2, stumbles: 0, toolCalls: [], denials: [denial], contextElided: false };
    store.finish(finishedRun({ activity }), Date.now());
    await tick();
    const frame = lastFrame() ?? "";
    expect(frame).toContain("✗ 1 action denied (not performed):");
    expect(frame).toContain("to allow: --allow 'exec:npm test'");
    // The time belongs to the run, not to the denied action ("not done in 13.9s" read as a deadline).
    expect(frame).toMatch(/■ success \(stop\) in \S+ · 1 action denied, not done · session/);
  });
});
