/**
 * A provider error is printed once: the root's `error` event is a history line, and the run's end (the
 * chat's turn end, `agent run`'s summary) does not print the same message a second time; an error the
 * history did not show still is.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { cleanup } from "ink-testing-library";
import { makeEvent } from "../../../../src/kernel/run-events/events.ts";
import { initialState, reduce } from "../../../../src/ui/ink/state/state.ts";
import { UiStore } from "../../../../src/ui/ink/state/store.ts";
import { finishedRun, root, tick } from "../../fixtures.ts";
import { renderRunApp } from "../../mount-app.tsx";

afterEach(() => cleanup());

const MESSAGE = "anthropic claude-x: 500 server error: internal server error";
const failed = (message: string) =>
  finishedRun({
    status: "error",
    finishReason: "provider_error",
    answer: "",
    error: { kind: "server", message },
  });

describe("a provider error is printed once", () => {
  test("chat: the turn's end leaves out an error the history already shows", () => {
    let state = reduce(initialState(), {
      type: "event",
      event: makeEvent(root, "error", { message: MESSAGE }),
    });
    state = reduce(state, { type: "turn_end", run: failed(MESSAGE), now: Date.now() });
    const errors = state.history.filter((item) => item.kind === "error").map((item) => item.text);
    expect(errors).toEqual([MESSAGE]);
    // The next turn's different error is printed by its end.
    state = reduce(state, {
      type: "turn_end",
      run: failed("openai gpt-x: 401 unauthorized"),
      now: Date.now(),
    });
    expect(state.history.filter((item) => item.kind === "error").map((item) => item.text)).toEqual([
      MESSAGE,
      "server error: openai gpt-x: 401 unauthorized",
    ]);
  });

  test("agent run: the summary leaves out the error the history shows, and prints one it does not", async () => {
    const mount = () => {
      const store = new UiStore({ flushMs: 5 });
      const app = renderRunApp(store);
      return { store, ...app };
    };
    const shown = mount();
    shown.store.dispatch({ type: "event", event: makeEvent(root, "error", { message: MESSAGE }) });
    shown.store.finish(failed(MESSAGE), Date.now());
    await tick();
    const frame = shown.lastFrame() ?? "";
    expect(frame.split(MESSAGE).length - 1).toBe(1);
    expect(frame).toContain("■ error (provider_error)");
    cleanup();
    const unseen = mount();
    unseen.store.finish(failed(MESSAGE), Date.now());
    await tick();
    expect(unseen.lastFrame()).toContain(`✗ server error: ${MESSAGE}`);
  });
});
