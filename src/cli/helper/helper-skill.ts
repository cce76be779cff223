/**
 * `agent helper "/name args"`: a user-invocable skill's body, with the arguments substituted, becomes the
 * task (docs/skills.md). Skills are looked for only when the task starts with `/` (nothing is loaded
 * otherwise); the activation is reported on stderr with the skill's path. The helper has no `skill` tool
 * and no catalog: it is one model call (or a short tool loop) on what the user typed.
 */

/** The task text for `words`, or undefined when they are no skill command. */
export async function helperSkillTask(
  words: string,
  cwd: string,
  env: Record<string, string | undefined>,
  note: (line: string) => void,
): Promise<string | undefined> {
  if (!words.trimStart().startsWith("/")) return undefined;
  // Skills load only for a prompt that starts with `/`.
  const [{ loadSessionSkills }, { invokedSkill }] = await Promise.all([
    import("../../sdk/session-skills.ts"),
    import("../../agents/spec/skills/slash.ts"),
  ]);
  const skills = await loadSessionSkills(cwd, env, false);
  const invoked = invokedSkill(skills?.set, words);
  if (!invoked) return undefined;
  const { userSkillGoal } = await import("../../agents/loop/skills/skill-activation.ts");
  note(`skill ${invoked.skill.name} (${invoked.skill.scope} ${invoked.skill.file})`);
  return userSkillGoal(invoked.skill, invoked.args);
}
