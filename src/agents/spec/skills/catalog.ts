import type { Skill, SkillSet } from "./types.ts";

/**
 * Progressive disclosure, tier 1 (agentskills.io "Adding skills support", Step 3): only each skill's name
 * and description enter the system prompt, as the `<available_skills>` block the reference library emits
 * (skills-ref/src/skills_ref/prompt.py `to_prompt`), with a short instruction to activate through the
 * `skill` tool. The block depends only on the session's skills, never on the turn, so it stays in the
 * stable system prefix and prompt caches keep hitting.
 */

/** What a spec's `skills:` capability allows: every skill, none, or the named ones. */
export type SkillsAccess = boolean | readonly string[];

/** The skills an agent may see and activate, in precedence order. */
export function skillsFor(set: SkillSet | undefined, access: SkillsAccess | undefined): Skill[] {
  if (!set || access === undefined || access === false) return [];
  const all = [...set.skills.values()];
  if (access === true) return all;
  return all.filter((s) => access.includes(s.name));
}

/** The skills the model may activate itself (not `disable-model-invocation`). */
export function modelInvocable(skills: readonly Skill[]): Skill[] {
  return skills.filter((s) => !s.disableModelInvocation);
}

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** The catalog block for a system prompt; "" when no skill is listed (no empty block, no tool). */
export function catalogBlock(skills: readonly Skill[]): string {
  if (skills.length === 0) return "";
  const lines = [
    "The following skills provide specialized instructions for specific tasks. When a task matches a " +
      "skill's description, call the skill tool with its name (and any arguments) to load its full " +
      "instructions before proceeding; files the instructions name are relative to the skill's folder.",
    "<available_skills>",
  ];
  for (const s of skills) {
    lines.push(
      "<skill>",
      `<name>${escapeXml(s.name)}</name>`,
      `<description>${escapeXml(s.description)}</description>`,
      "</skill>",
    );
  }
  lines.push("</available_skills>");
  return lines.join("\n");
}
