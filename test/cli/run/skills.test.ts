/**
 * Agent Skills through `agent run` in the test process (in-process.ts) against the fake Anthropic server,
 * without a terminal. The catalog is in the first
 * request's system prompt and stays byte-identical across turns; the model's `skill` call gets the body
 * with its arguments; `agent run "/name args"` activates a skill; `context: fork` runs a sub-agent; a
 * repository skill's allowed-tools never approve exec (a user skill's do); an activated skill's folder
 * outside the workspace is readable after activation, not before; a 2 MB or FIFO SKILL.md is a warning.
 * `agent helper "/name args"` is checked in test/e2e/agents/skills.test.ts.
 */
import { describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  onlyTranscriptText,
  parseJsonLines,
  toolResultsOf,
  transcriptRecords,
  writeProjectSpec,
} from "../../e2e/support.ts";
import { inProcessFixture } from "./in-process.ts";

const e2e = inProcessFixture();

function writeSkill(base: string, name: string, frontmatter: string, body: string): string {
  const dir = join(base, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "SKILL.md"), `---\nname: ${name}\n${frontmatter}---\n${body}\n`);
  return dir;
}

const projectSkills = () => join(e2e.sandbox.workspace, ".agents", "skills");
const userSkills = () => join(e2e.sandbox.configDir, "agent", "skills");

function run(args: string[]) {
  return e2e.runAgent([...args, "--output", "stream-json"]);
}

const bodyOf = (i: number) =>
  (e2e.server.requests[i]?.body ?? {}) as { system?: unknown; messages?: unknown[] };
const systemOf = (i: number) => JSON.stringify(bodyOf(i).system);
const firstUserText = (i: number) => JSON.stringify(bodyOf(i).messages?.[0]);

describe("skills end to end", () => {
  test("the catalog is in the first request and byte-identical on the next turn; skill returns the body", async () => {
    writeSkill(
      projectSkills(),
      "greet",
      "description: Greets a person by name.\n",
      "Say hello to $ARGUMENTS, then stop.",
    );
    e2e.server.enqueue(
      { toolCalls: [{ name: "skill", args: { name: "greet", arguments: "Ada" } }] },
      { text: "Hello Ada." },
    );
    const result = await run(["run", "greet Ada"]);
    expect(result.code).toBe(0);
    expect(systemOf(0)).toContain("<available_skills>");
    expect(systemOf(0)).toContain("<name>greet</name>");
    expect(systemOf(0)).toContain("<description>Greets a person by name.</description>");
    expect(systemOf(1)).toBe(systemOf(0));
    const [toolResult] = toolResultsOf(e2e.server.requests[1]);
    expect(toolResult).toContain("Say hello to Ada, then stop.");
    const lines = parseJsonLines(result.stdout);
    const activated = lines.find((l) => l.type === "skill_activated");
    expect(activated).toMatchObject({ skill: "greet", by: "model", scope: "project" });
    expect(String(activated?.path)).toEndWith(join(".agents", "skills", "greet", "SKILL.md"));
  });

  test("a skill loads once per conversation; a spec's skills: list narrows the catalog", async () => {
    writeSkill(projectSkills(), "greet", "description: Greets.\n", "Say hello.");
    writeSkill(projectSkills(), "other", "description: Other.\n", "Other.");
    writeProjectSpec(
      e2e.sandbox,
      "greeter.yaml",
      "name: greeter\ndescription: Greets.\ncapabilities: [read_file]\nskills: [greet]\nsystem_prompt: Greet.\n",
    );
    e2e.server.enqueue(
      { toolCalls: [{ name: "skill", args: { name: "greet" } }] },
      { toolCalls: [{ name: "skill", args: { name: "greet" } }] },
      { text: "Hello." },
    );
    const result = await run(["run", "greet", "--agent", "greeter"]);
    expect(result.code).toBe(0);
    expect(systemOf(0)).toContain("<name>greet</name>");
    expect(systemOf(0)).not.toContain("<name>other</name>");
    expect(toolResultsOf(e2e.server.requests[2]).at(-1)).toContain("already loaded in this conversation");
    expect(parseJsonLines(result.stdout).filter((l) => l.type === "skill_activated").length).toBe(1);
  });

  test('agent run "/greet Ada" activates the skill: its body with the arguments is the goal', async () => {
    writeSkill(
      projectSkills(),
      "greet",
      "description: Greets a person by name.\n",
      "Say hello to $0 warmly.",
    );
    e2e.server.enqueue({ text: "Hello Ada." });
    const result = await run(["run", "/greet Ada"]);
    expect(result.code).toBe(0);
    expect(firstUserText(0)).toContain("Say hello to Ada warmly.");
    const lines = parseJsonLines(result.stdout);
    expect(lines.find((l) => l.type === "skill_activated")).toMatchObject({ skill: "greet", by: "user" });
    // The run's goal is what was typed (events, transcript, `agent sessions`); the body went to the model.
    expect(lines.find((l) => l.type === "system" && l.subtype === "init")).toMatchObject({
      goal: "/greet Ada",
    });
    const start = transcriptRecords(onlyTranscriptText(e2e.sandbox)).find((r) => r.kind === "session_start");
    expect(start?.data.goal).toBe("/greet Ada");
    const sessions = await e2e.runAgent(["sessions"]);
    expect(sessions.stdout).toContain("/greet Ada");
    expect(sessions.stdout).not.toContain("Say hello");
  });

  test("a legacy command file works as /name", async () => {
    mkdirSync(join(e2e.sandbox.workspace, ".claude", "commands"), { recursive: true });
    writeFileSync(
      join(e2e.sandbox.workspace, ".claude", "commands", "review.md"),
      "Review the file $ARGUMENTS.\n",
    );
    e2e.server.enqueue({ text: "Reviewed." });
    const result = await run(["run", "/review src/a.ts"]);
    expect(result.code).toBe(0);
    expect(firstUserText(0)).toContain("Review the file src/a.ts.");
  });

  test("disable-model-invocation keeps a skill out of the catalog; user-invocable: false refuses /name", async () => {
    writeSkill(
      projectSkills(),
      "deploy",
      "description: Deploys.\ndisable-model-invocation: true\n",
      "Deploy.",
    );
    writeSkill(projectSkills(), "style", "description: House style.\nuser-invocable: false\n", "Use tabs.");
    e2e.server.enqueue({ text: "ok" });
    const result = await run(["run", "hi"]);
    expect(result.code).toBe(0);
    expect(systemOf(0)).not.toContain("<name>deploy</name>");
    expect(systemOf(0)).toContain("<name>style</name>");
    const refused = await run(["run", "/style now"]);
    expect(refused.code).toBe(2);
    expect(parseJsonLines(refused.stdout).at(-1)).toMatchObject({ type: "result", status: "error" });
    expect(refused.stdout).toContain("not user-invocable");
  });

  test("a context: fork skill runs as a sub-agent whose system prompt is the body", async () => {
    writeSkill(
      projectSkills(),
      "audit",
      "description: Audits.\ncontext: fork\n",
      "You are the auditor. Audit $ARGUMENTS.",
    );
    e2e.server.enqueue(
      { toolCalls: [{ name: "skill", args: { name: "audit", arguments: "src" } }] },
      { text: "audit found nothing" },
      { text: "The audit found nothing." },
    );
    const result = await run(["run", "audit src"]);
    expect(result.code).toBe(0);
    expect(systemOf(1)).toContain("You are the auditor. Audit src.");
    expect(systemOf(1)).not.toContain("<available_skills>");
    expect(toolResultsOf(e2e.server.requests[2]).join("\n")).toContain("audit found nothing");
    const lines = parseJsonLines(result.stdout);
    expect(lines.find((l) => l.type === "act_start")).toMatchObject({ child_name: "audit" });
  });

  test("a repository skill whose allowed-tools lists exec still asks (denied without a terminal)", async () => {
    writeSkill(
      projectSkills(),
      "builder",
      "description: Builds.\nallowed-tools: Bash(touch:*) exec\n",
      "Build it.",
    );
    e2e.server.enqueue(
      { toolCalls: [{ name: "skill", args: { name: "builder" } }] },
      { toolCalls: [{ name: "exec", args: { command: "touch made.txt" } }] },
      { text: "done" },
    );
    const result = await run(["run", "build", "--agent", "code-editor"]);
    expect(existsSync(join(e2e.sandbox.workspace, "made.txt"))).toBe(false);
    const lines = parseJsonLines(result.stdout);
    expect(lines.find((l) => l.type === "skill_activated")).toMatchObject({ granted: [] });
    expect(String(lines.find((l) => l.type === "skill_activated")?.ignored)).toContain(
      "not in trusted_projects",
    );
    expect(lines.find((l) => l.type === "approval_decision")).toMatchObject({ decision: { kind: "deny" } });
  });

  test("a user skill's allowed-tools pre-approve its command while active", async () => {
    writeSkill(userSkills(), "builder", "description: Builds.\nallowed-tools: Bash(touch:*)\n", "Build it.");
    e2e.server.enqueue(
      { toolCalls: [{ name: "skill", args: { name: "builder" } }] },
      { toolCalls: [{ name: "exec", args: { command: "touch made.txt" } }] },
      { text: "done" },
    );
    const result = await run(["run", "build", "--agent", "code-editor"]);
    expect(result.code).toBe(0);
    expect(existsSync(join(e2e.sandbox.workspace, "made.txt"))).toBe(true);
    const lines = parseJsonLines(result.stdout);
    expect(lines.find((l) => l.type === "skill_activated")).toMatchObject({ granted: ["exec:touch *"] });
  });

  test("a skill's resource outside the workspace is readable after activation, not before", async () => {
    const dir = writeSkill(
      userSkills(),
      "guide",
      "description: Style guide.\n",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the skill's own placeholder, substituted on activation
      "Read ${CLAUDE_SKILL_DIR}/references/rules.md.",
    );
    mkdirSync(join(dir, "references"));
    const resource = join(dir, "references", "rules.md");
    writeFileSync(resource, "RULE-ONE: tabs\n");
    e2e.server.enqueue(
      { toolCalls: [{ name: "read_file", args: { path: resource } }] },
      { toolCalls: [{ name: "skill", args: { name: "guide" } }] },
      { toolCalls: [{ name: "read_file", args: { path: resource } }] },
      { text: "Tabs." },
    );
    const result = await run(["run", "what is the style?", "--agent", "code-editor"]);
    expect(result.code).toBe(0);
    const before = toolResultsOf(e2e.server.requests[1]).join("\n");
    expect(before).not.toContain("RULE-ONE");
    expect(before).toContain("is outside the workspace");
    expect(toolResultsOf(e2e.server.requests[2]).join("\n")).toContain(`Read ${dir}/references/rules.md.`);
    expect(toolResultsOf(e2e.server.requests[3]).at(-1)).toContain("RULE-ONE: tabs");
  });

  test("a continued session (-c) keeps its activated skill's folder readable", async () => {
    const dir = writeSkill(userSkills(), "guide", "description: Style guide.\n", "Read references/rules.md.");
    mkdirSync(join(dir, "references"));
    const resource = join(dir, "references", "rules.md");
    writeFileSync(resource, "RULE-TWO: spaces\n");
    e2e.server.enqueue(
      { text: "Loaded." },
      { toolCalls: [{ name: "read_file", args: { path: resource } }] },
      { text: "Spaces." },
    );
    const first = await run(["run", "/guide", "--agent", "code-editor"]);
    expect(first.code).toBe(0);
    const second = await run(["run", "-c", "what does the rule say?", "--agent", "code-editor"]);
    expect(second.code).toBe(0);
    expect(toolResultsOf(e2e.server.requests[2]).at(-1)).toContain("RULE-TWO: spaces");
  });

  test("a 2 MB SKILL.md and a FIFO SKILL.md are refused with warnings; the run goes on", async () => {
    writeSkill(projectSkills(), "huge", `description: big\nx: "${"a".repeat(2 * 1024 * 1024)}"\n`, "x");
    mkdirSync(join(projectSkills(), "pipe"));
    execFileSync("mkfifo", [join(projectSkills(), "pipe", "SKILL.md")]);
    e2e.server.enqueue({ text: "ok" });
    const result = await run(["run", "hi"]);
    expect(result.code).toBe(0);
    const warnings = parseJsonLines(result.stdout).filter((l) => l.type === "warning" && l.code === "skills");
    expect(warnings.map((w) => String(w.message)).sort()).toEqual([
      `skill file ${join(projectSkills(), "huge", "SKILL.md")} skipped: larger than the 1048576 byte limit for config and spec files; refused`,
      `skill file ${join(projectSkills(), "pipe", "SKILL.md")} skipped: a FIFO, not a regular file; refused`,
    ]);
    expect(systemOf(0)).not.toContain("<available_skills>");
  });
});
