import { describe, expect, test } from "bun:test";
import { makeEvent } from "../../src/kernel/events.ts";
import { initialState, reduce } from "../../src/ui/ink/state.ts";
import { root } from "./fixtures.ts";

const start = (goal: string) =>
  makeEvent(root, "session_start", { sessionId: "s-1", goal, agentName: "root", model: "m-1", cwd: "/w" });

describe("the chat shows the user's message as typed", () => {
  test("`sent` adds `you: TEXT`; the turn's root goal (a skill's expanded body) is not shown again", () => {
    let state = reduce(initialState(), { type: "sent", text: "/greet Ada" });
    state = reduce(state, { type: "event", event: start("The user ran the skill command /greet Ada. ...") });
    const goals = state.history.filter((item) => item.kind === "goal");
    expect(goals.map((item) => [item.agentName, item.text])).toEqual([["you", "/greet Ada"]]);
  });

  test("only the turn after `sent` leaves its goal out: `agent run`'s goal line stays", () => {
    let state = reduce(initialState(), { type: "event", event: start("fix the tests") });
    expect(state.history.filter((item) => item.kind === "goal").map((item) => item.agentName)).toEqual([
      "root",
    ]);
    state = reduce(state, { type: "sent", text: "hi" });
    state = reduce(state, { type: "event", event: start("hi") });
    state = reduce(state, { type: "event", event: start("a later run") });
    expect(state.history.filter((item) => item.kind === "goal").map((item) => item.text)).toEqual([
      "fix the tests",
      "hi",
      "a later run",
    ]);
  });
});
