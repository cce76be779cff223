import { describe, expect, test } from "bun:test";
import { makeEvent } from "../../../../src/kernel/run-events/events.ts";
import { initialState, reduce } from "../../../../src/ui/ink/state/state.ts";
import { root } from "../../fixtures.ts";

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

describe("agent run -c on a terminal says it continues a session", () => {
  test("a resumed root start adds `continuing session ID` before its goal; a chat message does not", () => {
    const resumed = makeEvent(root, "session_start", {
      sessionId: "20261127-101500-ab12cd",
      goal: "Continue where you left off.",
      agentName: "root",
      model: "m-1",
      cwd: "/w",
      resumed: true,
    });
    const run = reduce(initialState(), { type: "event", event: resumed });
    expect(run.history.map((item) => [item.kind, item.text])).toEqual([
      ["info", "continuing session ab12cd"],
      ["goal", "Continue where you left off."],
    ]);
    let chat = reduce(initialState(), { type: "sent", text: "and now?" });
    chat = reduce(chat, { type: "event", event: resumed });
    expect(chat.history.map((item) => item.kind)).toEqual(["goal"]);
  });
});
