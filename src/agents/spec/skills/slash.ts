import { AppError } from "../../../kernel/index.ts";
import type { Skill, SkillSet } from "./types.ts";

/**
 * `/name args` typed by the user (chat, `agent run "/name args"`, `agent helper "/name args"`): the skill it
 * names, when one is user-invocable. A line naming no skill is not a skill command (`/usr/lib is full` is a
 * message); a skill with `user-invocable: false` is an error saying so.
 */

/** The name and arguments of a `/name args` line, or undefined when the line is not of that form. */
export function parseSkillCommand(line: string): { name: string; args: string } | undefined {
  const match = /^\/([^\s/]+)(?:\s+([\s\S]*))?$/.exec(line.trim());
  if (!match) return undefined;
  return { name: (match[1] ?? "").normalize("NFKC"), args: match[2]?.trim() ?? "" };
}

/** The skill a `/name args` goal invokes and its arguments; undefined when it names no skill. */
export function invokedSkill(
  set: SkillSet | undefined,
  goal: string,
): { skill: Skill; args: string } | undefined {
  const command = parseSkillCommand(goal);
  const skill = command && set?.skills.get(command.name);
  if (!command || !skill) return undefined;
  if (!skill.userInvocable)
    throw new AppError(
      "usage",
      `/${skill.name}: the skill ${skill.file} is not user-invocable (user-invocable: false); only the model can load it`,
    );
  return { skill, args: command.args };
}

/** The user skills offered as `/name` (the chat's `/` menu). */
export function userInvocable(set: SkillSet | undefined): Skill[] {
  return set ? [...set.skills.values()].filter((s) => s.userInvocable) : [];
}
