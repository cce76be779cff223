/**
 * Agent Skills in `agent helper`, end to end: bin/agent against the fake Anthropic server. `agent helper`
 * has no in-process entry; the skills of `agent run` are checked in the test process
 * (test/cli/run/skills.test.ts).
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { freshServerAndSandbox } from "../support.ts";

const e2e = freshServerAndSandbox();

function writeSkill(base: string, name: string, frontmatter: string, body: string): string {
  const dir = join(base, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "SKILL.md"), `---\nname: ${name}\n${frontmatter}---\n${body}\n`);
  return dir;
}

const projectSkills = () => join(e2e.sandbox.workspace, ".agents", "skills");

const bodyOf = (i: number) =>
  (e2e.server.requests[i]?.body ?? {}) as { system?: unknown; messages?: unknown[] };

describe("skills end to end", () => {
  test('agent helper "/greet Ada" sends the skill\'s body with the arguments', async () => {
    writeSkill(
      projectSkills(),
      "greet",
      "description: Greets a person by name.\n",
      "Say hello to $0 warmly.",
    );
    e2e.server.enqueue({ text: "Hello Ada." });
    const result = await e2e.runAgent(["helper", "/greet Ada"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("Hello Ada.\n");
    expect(JSON.stringify(bodyOf(0).messages)).toContain("Say hello to Ada warmly.");
    expect(result.stderr).toContain(`skill greet (project ${join(projectSkills(), "greet", "SKILL.md")})`);
  });
});
