/**
 * What a person reads about a skill and about the root agent: a skill call shows as `✓ skill NAME ARGS`
 * in plain progress and in the terminal view's history, never as raw JSON; `agent agents show root`
 * shows its `agents:*` and `skills: true` as its spec says them.
 */
import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeEvent } from "../../../src/kernel/run-events/events.ts";
import { initialState, reduce } from "../../../src/ui/ink/state/state.ts";
import { inProcessFixture } from "./in-process.ts";

const fixture = inProcessFixture();

/** The project skill `greet` in the sandbox's workspace. */
function writeGreetSkill(workspace: string): void {
  const dir = join(workspace, ".agents", "skills", "greet");
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "SKILL.md"),
    "---\nname: greet\ndescription: Greets someone by name.\n---\nGreet $ARGUMENTS in one line.\n",
  );
}

test("plain progress: a skill call is `✓ skill greet Ada`, not its JSON arguments", async () => {
  writeGreetSkill(fixture.sandbox.workspace);
  fixture.server.enqueue(
    { toolCalls: [{ name: "skill", args: { name: "greet", arguments: "Ada" } }] },
    { text: "Hello, Ada!" },
  );
  const result = await fixture.run(["run", "greet Ada"]);
  expect(result.code).toBe(0);
  expect(result.stderr).toMatch(/✓ skill greet Ada\b/);
  expect(result.stderr).not.toContain('{"name":"greet"');
});

test("the terminal view's history: a skill call is `skill greet Ada`", () => {
  const who = { agent: "root", name: "root", depth: 0 };
  let state = initialState();
  for (const event of [
    makeEvent(who, "tool_start", { id: "s1", tool: "skill", args: { name: "greet", arguments: "Ada" } }),
    makeEvent(who, "tool_end", {
      id: "s1",
      tool: "skill",
      isError: false,
      summary: "skill greet activated",
      display: "",
      durationMs: 3,
    }),
  ])
    state = reduce(state, { type: "event", event });
  const lines = state.history.filter((item) => item.kind === "tool").map((item) => item.text);
  expect(lines[0]).toStartWith("skill greet Ada");
  expect(lines.join("\n")).not.toContain('{"name"');
});

test("agent agents show root: agents:* and skills: true, as the spec says them", async () => {
  const shown = await fixture.run(["agents", "show", "root"]);
  expect(shown.code).toBe(0);
  expect(shown.stdout).toMatch(/capabilities:\n(?: {2}- .+\n)*? {2}- agents:\*\n/);
  expect(shown.stdout).toContain("\nskills: true\n");
  const json = await fixture.run(["agents", "show", "root", "--json"]);
  const spec = JSON.parse(json.stdout) as { capabilities: string[]; skills: boolean };
  expect(spec.capabilities).toContain("agents:*");
  expect(spec.skills).toBe(true);
});
