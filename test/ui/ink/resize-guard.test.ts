import { describe, expect, test } from "bun:test";
import { EventEmitter } from "node:events";
import { makeEvent } from "../../../src/kernel/run-events/events.ts";
import {
  CLEAR_SCREEN_AND_SCROLLBACK,
  guardResize,
  inkInteractive,
} from "../../../src/ui/ink/resize-guard.ts";
import { REPLAY_ITEMS, UiStore } from "../../../src/ui/ink/state/store.ts";
import { root } from "../fixtures.ts";

class FakeTty extends EventEmitter {
  columns = 120;
  written: string[] = [];
  write(text: string): boolean {
    this.written.push(text);
    return true;
  }
}

describe("resize guard", () => {
  test("a narrower terminal clears screen and scrollback, then replays; a wider one does nothing", () => {
    const tty = new FakeTty();
    let replays = 0;
    const inkSaw: string[] = [];
    tty.on("resize", () => inkSaw.push(tty.written.join("")));
    const stop = guardResize(tty, () => replays++);
    tty.columns = 60;
    tty.emit("resize");
    // It ran before the listener Ink added earlier.
    expect(inkSaw).toEqual([CLEAR_SCREEN_AND_SCROLLBACK]);
    expect(replays).toBe(1);
    tty.columns = 100;
    tty.emit("resize");
    expect(replays).toBe(1);
    stop();
    tty.columns = 40;
    tty.emit("resize");
    expect(replays).toBe(1);
    expect(tty.written).toEqual([CLEAR_SCREEN_AND_SCROLLBACK]);
  });

  test("only when Ink draws live frames: a TTY outside CI, or forced", () => {
    expect(inkInteractive({ isTTY: true }, undefined, {})).toBe(true);
    expect(inkInteractive({ isTTY: true }, undefined, { CI: "true" })).toBe(false);
    expect(inkInteractive({ isTTY: true }, undefined, { CI: "0" })).toBe(true);
    expect(inkInteractive({ isTTY: false }, undefined, {})).toBe(false);
    expect(inkInteractive({ isTTY: false }, true, { CI: "1" })).toBe(true);
  });
});

describe("store replay", () => {
  test("prints the latest items again as a new generation, with a note when earlier ones are left out", () => {
    const store = new UiStore({ flushMs: 0 });
    for (let i = 0; i < REPLAY_ITEMS + 5; i++) {
      store.dispatch({ type: "event", event: makeEvent(root, "warning", { message: `w${i}` }) });
      if (i % 100 === 0) {
        store.flush();
        store.markPrinted(store.getSnapshot().historyGeneration);
      }
    }
    store.flush();
    const before = store.getSnapshot().historyGeneration;
    store.replay();
    const state = store.getSnapshot();
    expect(state.historyGeneration).toBe(before + 1);
    expect(state.history).toHaveLength(REPLAY_ITEMS + 1);
    expect(state.history[0]?.text).toBe("(5 earlier lines not shown again)");
    expect(state.history[1]?.text).toBe("w5");
    expect(state.history.at(-1)?.text).toBe(`w${REPLAY_ITEMS + 4}`);
    store.dispose();
  });
});
