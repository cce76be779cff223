/** Skill discovery in real temp folders: precedence, legacy command files, and what the guarded reader refuses. */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { discoverSkills } from "../../../../src/agents/spec/skills/discover.ts";

let root: string;
let home: string;
let repo: string;
let env: Record<string, string>;

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), "skills-discover-"));
  home = path.join(root, "home");
  repo = path.join(root, "repo");
  mkdirSync(path.join(repo, ".git"), { recursive: true });
  mkdirSync(home, { recursive: true });
  env = { HOME: home, XDG_CONFIG_HOME: path.join(home, ".config") };
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function writeSkill(dir: string, name: string, description = `the ${name} skill`, extra = ""): string {
  mkdirSync(path.join(dir, name), { recursive: true });
  const file = path.join(dir, name, "SKILL.md");
  writeFileSync(file, `---\nname: ${name}\ndescription: ${description}\n${extra}---\nDo ${name}.\n`);
  return file;
}

const discover = () => discoverSkills({ workspaceRoot: repo, env, home });

describe("discoverSkills", () => {
  test("finds project (.agents, .claude) and user skills, and legacy command files", async () => {
    writeSkill(path.join(repo, ".agents", "skills"), "alpha");
    writeSkill(path.join(repo, ".claude", "skills"), "beta");
    writeSkill(path.join(home, ".config", "agent", "skills"), "gamma");
    writeSkill(path.join(home, ".agents", "skills"), "delta");
    mkdirSync(path.join(repo, ".claude", "commands"), { recursive: true });
    writeFileSync(path.join(repo, ".claude", "commands", "review.md"), "Review $ARGUMENTS carefully.\n");
    const set = await discover();
    expect(set.warnings).toEqual([]);
    expect([...set.skills.keys()].sort()).toEqual(["alpha", "beta", "delta", "gamma", "review"]);
    expect(set.skills.get("alpha")?.scope).toBe("project");
    expect(set.skills.get("gamma")?.scope).toBe("user");
    const review = set.skills.get("review");
    expect(review?.dir).toBeUndefined();
    expect(review?.description).toBe("Review $ARGUMENTS carefully.");
  });

  test("a project skill overrides a user skill of the same name, reported once", async () => {
    const user = writeSkill(path.join(home, ".agents", "skills"), "deploy", "the user's");
    const project = writeSkill(path.join(repo, ".agents", "skills"), "deploy", "the project's");
    const set = await discover();
    expect(set.skills.get("deploy")?.description).toBe("the project's");
    expect(set.warnings).toEqual([
      `skill "deploy" in ${user} is hidden by the project skill of the same name in ${project}`,
    ]);
  });

  test("an invalid skill is a warning with file, line and field; the run's other skills load", async () => {
    const dir = path.join(repo, ".agents", "skills");
    writeSkill(dir, "good");
    mkdirSync(path.join(dir, "bad"));
    const bad = path.join(dir, "bad", "SKILL.md");
    writeFileSync(bad, "---\nname: bad\n---\nbody\n");
    const set = await discover();
    expect([...set.skills.keys()]).toEqual(["good"]);
    expect(set.warnings).toEqual([
      `skill skipped: ${bad}:2: description: missing: expected what the skill does and when to use it`,
    ]);
  });

  test("a 2 MB SKILL.md is refused with a warning", async () => {
    const file = writeSkill(
      path.join(repo, ".agents", "skills"),
      "huge",
      "big",
      `x: "${"a".repeat(2 * 1024 * 1024)}"\n`,
    );
    const set = await discover();
    expect(set.skills.size).toBe(0);
    expect(set.warnings).toEqual([
      `skill file ${file} skipped: larger than the 1048576 byte limit for config and spec files; refused`,
    ]);
  });

  test("a 300 KB frontmatter line is read in linear time (the default timeout catches a backtracking parse)", async () => {
    const blanks = " ".repeat(300_000);
    writeSkill(path.join(repo, ".agents", "skills"), "wide", `wide${blanks}open`);
    writeSkill(path.join(repo, ".agents", "skills"), "colon", `colon: ${blanks}x`);
    // Discovery runs on a worker thread, so the default timeout can end a stalled parse (on this thread a
    // synchronous regex would block the timer until it finished, minutes later).
    const worker = new Worker(new URL("./support/discover-worker.ts", import.meta.url).href);
    try {
      const found = await new Promise<{ descriptions: Record<string, string>; warnings: string[] }>(
        (resolve, reject) => {
          worker.onmessage = (event) => resolve(event.data);
          worker.onerror = (event) => reject(new Error(event.message));
          worker.postMessage({ workspaceRoot: repo, env, home });
        },
      );
      expect(found.descriptions.wide).toBe(`wide${blanks}open`.slice(0, 1024));
      // `key: a: b` is no plain YAML value: the YAML parser reports it, once, in linear time too.
      expect(found.descriptions.colon).toBeUndefined();
      expect(found.warnings.join("\n")).toContain("invalid YAML");
    } finally {
      worker.terminate();
    }
  });

  test("a FIFO SKILL.md is refused without blocking", async () => {
    const dir = path.join(repo, ".agents", "skills", "fifo");
    mkdirSync(dir, { recursive: true });
    execFileSync("mkfifo", [path.join(dir, "SKILL.md")]);
    const set = await discover();
    expect(set.skills.size).toBe(0);
    expect(set.warnings).toEqual([
      `skill file ${path.join(dir, "SKILL.md")} skipped: a FIFO, not a regular file; refused`,
    ]);
  });

  test("a skill folder or SKILL.md linked out of the repository is refused", async () => {
    const outside = path.join(root, "outside");
    writeSkill(outside, "stolen");
    const skills = path.join(repo, ".agents", "skills");
    mkdirSync(skills, { recursive: true });
    symlinkSync(path.join(outside, "stolen"), path.join(skills, "stolen"));
    mkdirSync(path.join(skills, "linked"));
    symlinkSync(path.join(outside, "stolen", "SKILL.md"), path.join(skills, "linked", "SKILL.md"));
    const set = await discover();
    expect(set.skills.size).toBe(0);
    expect(set.warnings.length).toBe(2);
    for (const w of set.warnings) expect(w).toMatch(/a symlink out of .*; refused/);
  });

  test("no skill folder: an empty set, no warnings", async () => {
    const set = await discover();
    expect(set.skills.size).toBe(0);
    expect(set.warnings).toEqual([]);
  });
});
