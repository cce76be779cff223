/** `agent skills list|show|validate` through bin/agent in a temp HOME and workspace. */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { makeSandbox, runAgent, type Sandbox } from "../../../cli/run-agent.ts";

let sandbox: Sandbox;
let workspace: string;

beforeEach(() => {
  sandbox = makeSandbox();
  workspace = join(sandbox.dir, "ws");
  mkdirSync(workspace);
});
afterEach(() => sandbox.cleanup());

function skill(name: string, text: string): string {
  const dir = join(workspace, ".agents", "skills", name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "SKILL.md"), text);
  return join(dir, "SKILL.md");
}

const run = (...args: string[]) => runAgent(["skills", ...args], { env: sandbox.env(), cwd: workspace });

describe("agent skills", () => {
  test("validate: each problem as FILE:LINE: field: expected …, exit 3; a valid skill is ok", async () => {
    skill("good", "---\nname: good\ndescription: Good.\n---\nDo good.\n");
    const bad = skill("Bad", "---\nname: Bad\ndescription: x\ncolour: red\n---\nbody\n");
    const result = await run("validate");
    expect(result.code).toBe(3);
    expect(result.stdout).toBe(`ok good ${join(workspace, ".agents/skills/good/SKILL.md")}\n`);
    const lines = result.stderr.trim().split("\n");
    expect(lines[0]).toBe(`${bad}:2: name: expected lowercase letters only: "Bad"`);
    expect(lines[1]).toStartWith(
      `${bad}:4: colour: not a field of the Agent Skills specification; expected one of name, description`,
    );
    expect(lines.at(-1)).toBe("agent: 1 of 2 skill file(s) have problems");
  });

  test("validate PATH: the public fixture skills are valid (exit 0); a missing path is a usage error", async () => {
    const fixtures = resolve(import.meta.dir, "../../../fixtures/skills/anthropics");
    const ok = await run("validate", fixtures);
    expect(ok.code).toBe(0);
    expect(
      ok.stdout
        .trim()
        .split("\n")
        .map((l) => l.split(" ")[1]),
    ).toEqual(["frontend-design", "mcp-builder", "skill-creator", "webapp-testing"]);
    const one = await run("validate", join(fixtures, "mcp-builder"));
    expect(one.code).toBe(0);
    const missing = await run("validate", "nope");
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe("agent: nope: does not exist\n");
  });

  test("list --json: name, source, path, description, problems; a hidden skill names its winner", async () => {
    const project = skill("deploy", "---\nname: deploy\ndescription: Project deploy.\n---\nDeploy.\n");
    const userDir = join(sandbox.configDir, "agent", "skills", "deploy");
    mkdirSync(userDir, { recursive: true });
    writeFileSync(join(userDir, "SKILL.md"), "---\nname: deploy\ndescription: User deploy.\n---\nDeploy.\n");
    const result = await run("list", "--json");
    expect(result.code).toBe(0);
    const { skills } = JSON.parse(result.stdout) as { skills: Record<string, unknown>[] };
    expect(skills).toEqual([
      expect.objectContaining({
        name: "deploy",
        scope: "project",
        path: project,
        description: "Project deploy.",
        problems: [],
      }),
      expect.objectContaining({ name: "deploy", scope: "user", hidden_by: project }),
    ]);
  });

  test("show NAME prints the fields and the body; an unknown name exits 2 naming the known ones", async () => {
    skill("greet", "---\nname: greet\ndescription: Greets.\nallowed-tools: Read\n---\nSay hello.\n");
    const shown = await run("show", "greet");
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain("name: greet\ndescription: Greets.\n");
    expect(shown.stdout).toContain("allowed-tools: Read\n");
    expect(shown.stdout).toEndWith("\nSay hello.\n");
    const unknown = await run("show", "nope");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe('agent: no skill named "nope" (known: greet)\n');
  });

  test("agent --help lists the skills command", async () => {
    const help = await runAgent(["--help"], { env: sandbox.env(), cwd: workspace });
    expect(help.stdout).toMatch(/^\s+skills\s+the Agent Skills found from here/m);
  });
});
