/**
 * A repository with 3,000 skills through `agent run` in the test process against the fake Anthropic
 * server: the first request stays small (the catalog's entries are capped, the skill tool's schema holds
 * no enum of every name), a note names what was left out, and a left-out skill still loads by name.
 */
import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CATALOG_ENTRIES_CAP, LEFT_OUT_NOTE_CAP } from "../../../src/agents/spec/skills/catalog.ts";
import { toolResultsOf } from "../../e2e/support.ts";
import { inProcessFixture } from "./in-process.ts";

const e2e = inProcessFixture();

const SKILLS = 3_000;
const nameOf = (i: number) => `skill-${String(i).padStart(4, "0")}`;

test("3,000 repository skills: the first request stays under the cap and names what was left out", async () => {
  const base = join(e2e.sandbox.workspace, ".agents", "skills");
  const description = `Does task number N. ${"Long words that fill the description. ".repeat(26)}`.slice(
    0,
    1_000,
  );
  for (let i = 0; i < SKILLS; i++) {
    const dir = join(base, nameOf(i));
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, "SKILL.md"),
      `---\nname: ${nameOf(i)}\ndescription: ${description}\n---\nBody of ${nameOf(i)}.\n`,
    );
  }
  const last = nameOf(SKILLS - 1);
  e2e.server.enqueue({ toolCalls: [{ name: "skill", args: { name: last } }] }, { text: "done" });
  const result = await e2e.runAgent(["run", "do the task", "--output", "stream-json"]);
  expect(result.code).toBe(0);
  const first = e2e.server.requests[0]?.body as { system?: unknown; tools?: { name: string }[] };
  const system = JSON.stringify(first.system);
  const block = system.slice(system.indexOf("<available_skills>"), system.indexOf("</available_skills>"));
  // The entries within the cap (JSON escapes each newline as two characters: allow for them).
  expect(block.length).toBeLessThan(CATALOG_ENTRIES_CAP * 1.1);
  expect(system).toContain(`<name>${nameOf(0)}</name>`);
  expect(system).not.toContain(`<name>${last}</name>`);
  expect(system).toMatch(/Only \d+ of 3000 skills are listed above/);
  expect(system).toContain("and still loadable with the skill tool by name: ");
  expect(system).toMatch(/and \d+ more\./);
  // The whole first request: the system prompt, the goal and every tool's schema (3.26 MB before).
  const size = JSON.stringify(first).length;
  expect(size).toBeLessThan(CATALOG_ENTRIES_CAP + LEFT_OUT_NOTE_CAP + 40_000);
  // A skill left out of the listing still loads by its name.
  expect(JSON.stringify(toolResultsOf(e2e.server.requests[1]))).toContain(`Body of ${last}.`);
});
