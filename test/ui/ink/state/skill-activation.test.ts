/** A skill's activation shows in the Ink history and the plain progress with its path and scope. */
import { expect, test } from "bun:test";
import { makeEvent } from "../../../../src/kernel/run-events/events.ts";
import { initialState, reduce } from "../../../../src/ui/ink/state/state.ts";
import { ProgressLines } from "../../../../src/ui/progress-lines.ts";
import { MemorySink, root } from "../../fixtures.ts";

const event = makeEvent(root, "skill_activated", {
  skill: "deploy",
  path: "/repo/.agents/skills/deploy/SKILL.md",
  scope: "project",
  by: "model",
  fork: false,
  granted: [],
  ignored: "allowed-tools of project skill deploy ignored: the project is not in trusted_projects",
});

const TEXT =
  "skill deploy activated by the model (project /repo/.agents/skills/deploy/SKILL.md); allowed-tools of project skill deploy ignored: the project is not in trusted_projects";

test("Ink: an info item in the history naming the skill's path", () => {
  const state = reduce(initialState(), { type: "event", event });
  expect(JSON.stringify(state)).toContain(JSON.stringify(TEXT));
});

test("plain progress: one line naming the skill's path", () => {
  const stderr = new MemorySink();
  const lines = new ProgressLines({ stderr, colors: false, level: "full" });
  lines.onEvent(event);
  expect(stderr.lines).toEqual([`◆ root: ${TEXT}`]);
});

test("plain progress: a continued session's restored activation says so", () => {
  const stderr = new MemorySink();
  const lines = new ProgressLines({ stderr, colors: false, level: "full" });
  lines.onEvent(
    makeEvent(root, "skill_activated", {
      skill: "builder",
      path: "/home/u/.config/agent/skills/builder/SKILL.md",
      scope: "user",
      by: "model",
      fork: false,
      granted: ["exec:touch *"],
      restored: true,
    }),
  );
  expect(stderr.lines).toEqual([
    "◆ root: skill builder restored from the session (activated by the model earlier) (user /home/u/.config/agent/skills/builder/SKILL.md); pre-approved: exec:touch *",
  ]);
});
