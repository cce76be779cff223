/**
 * The Agent Skills reference validator's verdicts, ported: each case below is one test of
 * skills-ref/tests/test_validator.py in github.com/agentskills/agentskills (commit 69ef37e), licensed
 * Apache-2.0 (Copyright Anthropic, PBC; the repository's skills-ref/LICENSE). Each case is the folder
 * name and SKILL.md text the Python test writes, and whether its `validate()` returns no errors (valid)
 * or an error containing the words it asserts. Our validator must give the same verdict.
 */
import { describe, expect, test } from "bun:test";
import { parseSkillFile } from "../../../../src/agents/spec/skills/validate.ts";

interface Case {
  test: string;
  folder: string;
  text: string;
  /** undefined: no problems; else a word our problem must contain (the reference's words differ). */
  problem?: RegExp;
}

const skill = (name: string, extra = "", description = "A test skill") =>
  `---\nname: ${name}\ndescription: ${description}\n${extra}---\nBody\n`;

const CASES: Case[] = [
  { test: "test_valid_skill", folder: "my-skill", text: skill("my-skill") },
  { test: "test_invalid_name_uppercase", folder: "MySkill", text: skill("MySkill"), problem: /lowercase/ },
  { test: "test_name_too_long", folder: "a".repeat(70), text: skill("a".repeat(70)), problem: /at most 64/ },
  {
    test: "test_name_leading_hyphen",
    folder: "-my-skill",
    text: skill("-my-skill"),
    problem: /hyphen at the start/,
  },
  {
    test: "test_name_consecutive_hyphens",
    folder: "my--skill",
    text: skill("my--skill"),
    problem: /consecutive/,
  },
  {
    test: "test_name_invalid_characters",
    folder: "my_skill",
    text: skill("my_skill"),
    problem: /letters, digits/,
  },
  {
    test: "test_name_directory_mismatch",
    folder: "wrong-name",
    text: skill("correct-name"),
    problem: /folder's name/,
  },
  {
    test: "test_unexpected_fields",
    folder: "my-skill",
    text: skill("my-skill", "unknown_field: should not be here\n"),
    problem: /not a field/,
  },
  {
    test: "test_valid_with_all_fields",
    folder: "my-skill",
    text: skill("my-skill", "license: MIT\nmetadata:\n  author: Test\n"),
  },
  {
    test: "test_allowed_tools_accepted",
    folder: "my-skill",
    text: skill("my-skill", "allowed-tools: Bash(jq:*) Bash(git:*)\n"),
  },
  { test: "test_i18n_chinese_name", folder: "技能", text: skill("技能", "", "A skill with Chinese name") },
  { test: "test_i18n_russian_name_with_hyphens", folder: "мой-навык", text: skill("мой-навык") },
  { test: "test_i18n_russian_lowercase_valid", folder: "навык", text: skill("навык") },
  {
    test: "test_i18n_russian_uppercase_rejected",
    folder: "НАВЫК",
    text: skill("НАВЫК"),
    problem: /lowercase/,
  },
  {
    test: "test_description_too_long",
    folder: "my-skill",
    text: skill("my-skill", "", "x".repeat(1100)),
    problem: /at most 1024/,
  },
  {
    test: "test_valid_compatibility",
    folder: "my-skill",
    text: skill("my-skill", "compatibility: Requires Python 3.11+\n"),
  },
  {
    test: "test_compatibility_too_long",
    folder: "my-skill",
    text: skill("my-skill", `compatibility: ${"x".repeat(550)}\n`),
    problem: /at most 500/,
  },
  // Folder in the precomposed form, name in the decomposed one: equal after NFKC.
  { test: "test_nfkc_normalization", folder: "café", text: skill("cafe\u0301") },
];

describe("the reference validator's cases (skills-ref tests/test_validator.py)", () => {
  for (const c of CASES) {
    test(`${c.test}: ${c.problem ? "invalid" : "valid"}`, () => {
      const file = `/skills/${c.folder}/SKILL.md`;
      const { problems } = parseSkillFile(c.text, file, `/skills/${c.folder}`, "user");
      if (!c.problem) expect(problems).toEqual([]);
      else expect(problems.map((p) => p.message).join("\n")).toMatch(c.problem);
    });
  }
});

describe("the reference parser's refusals (skills-ref parser.py parse_frontmatter)", () => {
  test("no frontmatter: invalid, line 1", () => {
    const { problems, skill } = parseSkillFile("# just a body\n", "/s/x/SKILL.md", "/s/x", "user");
    expect(skill).toBeUndefined();
    expect(problems[0]).toMatchObject({
      line: 1,
      message: expect.stringMatching(/start with YAML frontmatter/),
    });
  });
  test("unclosed frontmatter: invalid", () => {
    const { problems } = parseSkillFile("---\nname: x\n", "/s/x/SKILL.md", "/s/x", "user");
    expect(problems[0]?.message).toMatch(/closed/);
  });
  test("missing description: the skill is not loaded; the field and line are named", () => {
    const { problems, skill } = parseSkillFile("---\nname: x\n---\nbody", "/s/x/SKILL.md", "/s/x", "user");
    expect(skill).toBeUndefined();
    expect(problems[0]).toMatchObject({ field: "description", line: 2 });
  });
  test("an unknown field names its own line", () => {
    const { problems, skill } = parseSkillFile(skill2(), "/s/x/SKILL.md", "/s/x", "user");
    expect(problems).toEqual([
      expect.objectContaining({
        file: "/s/x/SKILL.md",
        line: 4,
        field: "colour",
        message: expect.stringMatching(/^not a field/),
      }),
    ]);
    // Lenient: a cosmetic problem is warned about, the skill still loads.
    expect(skill?.name).toBe("x");
  });
});

function skill2(): string {
  return "---\nname: x\ndescription: d\ncolour: red\n---\nbody\n";
}

test("a description over 1024 characters is reported and loaded cut to 1024 (a repository cannot grow every prompt)", () => {
  const text = `---\nname: x\ndescription: ${"y".repeat(5000)}\n---\nbody\n`;
  const { skill, problems } = parseSkillFile(text, "/s/x/SKILL.md", "/s/x", "project");
  expect(problems[0]?.field).toBe("description");
  expect(skill?.description.length).toBe(1024);
});
