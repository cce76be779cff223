/**
 * The chat's status line between and after turns: the model it opens with (not `…`), no stale `0ms`
 * while nothing runs, and a cost that agrees with the turn's own at its end (a free local model's turn
 * was priced at the unknown-model default live).
 */

import { afterEach, describe, expect, test } from "bun:test";
import { cleanup } from "ink-testing-library";
import { emptyUsage } from "../../../../src/kernel/index.ts";
import { makeEvent } from "../../../../src/kernel/run-events/events.ts";
import { UiStore } from "../../../../src/ui/ink/state/store.ts";
import { answeredTurn, finishedRun, root } from "../../fixtures.ts";
import { renderChatApp, renderRunApp, until } from "../../mount-app.tsx";

afterEach(() => cleanup());

const usage = { ...emptyUsage(), inputTokens: 10, outputTokens: 5 };

function mount(store: UiStore) {
  return renderChatApp(store, { showCost: true });
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
      for (const event of answeredTurn("m", usage, "Hi.")) store.dispatch({ type: "event", event });
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
    const { lastFrame } = renderRunApp(store, { showCost: true });
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
