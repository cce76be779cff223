/** Real skills written by others load and validate (test/fixtures/skills/README.md: origin and licences). */
import { expect, test } from "bun:test";
import path from "node:path";
import { collectSkills, readSkillSources } from "../../../../src/agents/spec/skills/discover.ts";

const FIXTURES = path.resolve(import.meta.dir, "../../../fixtures/skills/anthropics");

test("anthropics/skills: frontend-design, mcp-builder, skill-creator, webapp-testing load without problems", async () => {
  // The fixture folder is searched as a user's skills folder is.
  const results = await readSkillSources([
    { dir: FIXTURES, scope: "user", layout: "skills", within: FIXTURES },
  ]);
  const set = collectSkills(results, false);
  expect(set.warnings).toEqual([]);
  expect([...set.skills.keys()].sort()).toEqual([
    "frontend-design",
    "mcp-builder",
    "skill-creator",
    "webapp-testing",
  ]);
  for (const skill of set.skills.values()) {
    expect(skill.problems).toEqual([]);
    expect(skill.body.length).toBeGreaterThan(100);
  }
});

test("the example skill in examples/skills validates without problems", async () => {
  const dir = path.resolve(import.meta.dir, "../../../../examples/skills");
  const results = await readSkillSources([{ dir, scope: "user", layout: "skills", within: dir }]);
  expect(results.map((r) => [r.skill?.name, r.problems])).toEqual([["changelog-entry", []]]);
});
