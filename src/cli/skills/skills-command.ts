/** `agent skills list|show NAME|validate [PATH]`: the Agent Skills found from here. Work lives in skills-run.ts. */
import type { Command } from "commander";
import { type CommandModule, exitWith } from "../shared/command-module.ts";
import { commandIo } from "../shared/io/command-io.ts";
import type * as SkillsRun from "./skills-run.ts";

export const skillsCommand: CommandModule<typeof SkillsRun> = {
  register(program: Command, load, io) {
    const skills = program
      .command("skills")
      .description(
        "the Agent Skills found from here: .agents/skills, .claude/skills, commands, your own (docs/skills.md)",
      );
    skills
      .command("list", { isDefault: true })
      .description("(default) every skill: name, source, path, description and problems")
      .option("--json", "print the skills as JSON")
      .action(async (flags: { json?: boolean }) => {
        const { listSkills } = await load();
        exitWith(await listSkills(flags, commandIo(io)));
      });
    skills
      .command("show")
      .description("print one skill: its fields and its instructions")
      .argument("<name>", "the skill's name")
      .option("--json", "print the skill as JSON")
      .action(async (name: string, flags: { json?: boolean }) => {
        const { showSkill } = await load();
        exitWith(await showSkill(name, flags, commandIo(io)));
      });
    skills
      .command("validate")
      .description(
        "check every skill found from here, or the skill folder (or folder of skills) at PATH; each problem as FILE:LINE: field: expected ... (exit 3 if any)",
      )
      .argument("[path]", "a skill folder, its SKILL.md, or a folder of skill folders")
      .action(async (path: string | undefined) => {
        const { validateSkills } = await load();
        exitWith(await validateSkills(path, commandIo(io)));
      });
  },
};
