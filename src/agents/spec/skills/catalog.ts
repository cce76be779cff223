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

/**
 * The most characters the skill entries of the catalog may take (about 4,000 tokens). Descriptions are
 * already cut at 1,024 characters each (the specification's limit); their number is not, and a repository
 * can hold thousands of skills, every one of them sent with every request. Claude Code caps the same
 * listing at 1% of the context window, 8,000 characters when the window is unknown, and drops what does
 * not fit (Claude Code skills documentation, as quoted at
 * agentengineermaster.com/skills/skill-description-character-count-how-to-check-your-claude-code-budget;
 * its warning "Skill listing will be truncated ... descriptions dropped", quoted at
 * claudefa.st/blog/guide/mechanics/skill-listing-budget). Ours is fixed, so the block depends only on
 * the skills and stays in the stable prefix whatever the model.
 */
export const CATALOG_ENTRIES_CAP = 16_000;
/** The most characters the note naming the skills left out may take. */
export const LEFT_OUT_NOTE_CAP = 2_000;

/** The catalog block for a system prompt; "" when no skill is listed (no empty block, no tool). */
export function catalogBlock(skills: readonly Skill[]): string {
  if (skills.length === 0) return "";
  const lines = [
    "The following skills provide specialized instructions for specific tasks. When a task matches a " +
      "skill's description, call the skill tool with its name (and any arguments) to load its full " +
      "instructions before proceeding; files the instructions name are relative to the skill's folder.",
    "<available_skills>",
  ];
  const { listed, leftOut } = catalogListing(skills);
  lines.push(...listed.map(catalogEntry), "</available_skills>");
  if (leftOut.length > 0) lines.push(leftOutNote(leftOut, skills.length));
  return lines.join("\n");
}

/** One skill's entry in the listing. */
function catalogEntry(s: Skill): string {
  return [
    "<skill>",
    `<name>${escapeXml(s.name)}</name>`,
    `<description>${escapeXml(s.description)}</description>`,
    "</skill>",
  ].join("\n");
}

/**
 * The skills listed in the catalog and those left out: in precedence order (project skills first), the
 * first whose entries fit in {@link CATALOG_ENTRIES_CAP}. The skill tool offers its names as an enum only
 * when none is left out (a schema of thousands of names would be the same unbounded text again).
 */
export function catalogListing(skills: readonly Skill[]): { listed: Skill[]; leftOut: Skill[] } {
  let used = 0;
  let count = 0;
  for (const s of skills) {
    const size = catalogEntry(s).length + 1;
    if (used + size > CATALOG_ENTRIES_CAP) break;
    used += size;
    count++;
  }
  return { listed: skills.slice(0, count), leftOut: skills.slice(count) };
}

/**
 * What was left out of the listing: how many, and as many of their names as fit in
 * {@link LEFT_OUT_NOTE_CAP}; the skill tool still loads any of them by name.
 */
function leftOutNote(left: readonly Skill[], total: number): string {
  const head =
    `Only ${total - left.length} of ${total} skills are listed above (the listing is capped at ` +
    `${CATALOG_ENTRIES_CAP} characters). Left out, and still loadable with the skill tool by name: `;
  const names: string[] = [];
  let length = head.length;
  for (const s of left) {
    const name = escapeXml(s.name);
    // Room for ", " and the closing "and N more." that may follow.
    if (length + name.length + 2 + 24 > LEFT_OUT_NOTE_CAP) break;
    names.push(name);
    length += name.length + 2;
  }
  const more = left.length - names.length;
  return `${head}${names.join(", ")}${more > 0 ? `${names.length > 0 ? ", " : ""}and ${more} more.` : "."}`;
}
