/**
 * The chat's status line between and after turns: the model it opens with (not `…`), no stale `0ms`
 * while nothing runs, and a cost that agrees with the turn's own at its end (a free local model's turn
 * was priced at the unknown-model default live).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { cleanup, render } from "ink-testing-library";
import { makeEvent } from "../../../../src/kernel/run-events/events.ts";
import { ChatApp } from "../../../../src/ui/ink/chat/chat-app.tsx";
import { ChatController } from "../../../../src/ui/ink/chat/chat-controller.ts";
import { InkApprover } from "../../../../src/ui/ink/prompts/ink-approver.ts";
import { App } from "../../../../src/ui/ink/run/app.tsx";
import { UiStore } from "../../../../src/ui/ink/state/store.ts";
import { finishedRun, root } from "../../fixtures.ts";

afterEach(() => cleanup());

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 4000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const usage = {
  inputTokens: 10,
  outputTokens: 5,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  reasoningTokens: 0,
};

function mount(store: UiStore) {
  return render(
    <ChatApp
      store={store}
      chat={new ChatController()}
      approver={new InkApprover(store)}
      colors={false}
      showCost={true}
      onInterrupt={() => {}}
    />,
  );
}

describe("the chat's status line", () => {
  test("opens with the welcome's model as its id, and shows no elapsed time while nothing runs", async () => {
    const store = new UiStore({ flushMs: 0 });
    store.dispatch({ type: "welcome", info: { model: "ollama:llama3.2:8b", workspace: "/w" } });
    store.flush();
    const { lastFrame } = mount(store);
    await until(() => (lastFrame() ?? "").includes("llama3.2:8b · 0 tokens · $0.0000"), "the status line");
    const status = (lastFrame() ?? "").split("\n").find((line) => line.startsWith("llama3.2:8b · "));
    expect(status?.trim()).toBe("llama3.2:8b · 0 tokens · $0.0000");
    store.dispatch({ type: "reset", model: "anthropic:claude-fable-5-2" });
    store.flush();
    await until(() => (lastFrame() ?? "").includes("claude-fable-5-2 · 0 tokens"), "the model after /clear");
    expect(lastFrame()).not.toContain("anthropic:claude-fable-5-2 · ");
  });

  test("at a turn's end the cost is the run's own, whatever the live estimate said", async () => {
    // The live estimate prices every call at 1 dollar; the run reports what it really cost (nothing).
    const store = new UiStore({ flushMs: 0, costOf: () => 1 });
    const { lastFrame } = mount(store);
    const turn = (cost: number) => {
      for (const event of [
        makeEvent(root, "session_start", {
          sessionId: "s",
          goal: "hi",
          agentName: "root",
          model: "m",
          cwd: "/w",
        }),
        makeEvent(root, "plan_start", { turn: 1, model: "m" }),
        makeEvent(root, "plan_end", { turn: 1, stopReason: "end_turn", usage, text: "Hi.", toolCalls: [] }),
      ])
        store.dispatch({ type: "event", event });
      store.flush();
      const run = finishedRun({ answer: "Hi." });
      const [first, ...rest] = run.usage;
      if (first) run.usage = [{ ...first, subtree: { ...first.subtree, costUsd: cost } }, ...rest];
      store.dispatch({ type: "turn_end", run, now: Date.now() });
      store.flush();
    };
    turn(0);
    expect(store.getSnapshot().costUsd).toBe(0);
    turn(0.25);
    expect(store.getSnapshot().costUsd).toBe(0.25);
    await until(() => (lastFrame() ?? "").includes("$0.2500"), "the reconciled cost on screen");
  });
});

describe("agent run's status line", () => {
  test("is not drawn before the run starts, then names the model", async () => {
    const store = new UiStore({ flushMs: 0 });
    const { lastFrame } = render(
      <App
        store={store}
        approver={new InkApprover(store)}
        colors={false}
        showCost={true}
        onInterrupt={() => {}}
      />,
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(lastFrame() ?? "").not.toContain("tokens");
    store.dispatch({
      type: "event",
      event: makeEvent(root, "session_start", {
        sessionId: "s",
        goal: "hi",
        agentName: "root",
        model: "m-1",
        cwd: "/w",
      }),
    });
    store.flush();
    await until(() => (lastFrame() ?? "").includes("m-1 · 0 tokens · $0.0000"), "the status line");
  });
});
