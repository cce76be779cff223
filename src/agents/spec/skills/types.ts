/**
 * Agent Skills (agentskills.io/specification): what a discovered skill is. A skill is instructions, never
 * permission: nothing here runs anything; the `skill` tool and `/name` load the body on demand.
 */

/** Where a skill was found: the user's own folders or the project's (a cloned repository's). */
export type SkillScope = "user" | "project";

/** One problem of a SKILL.md (or legacy command file), located: `FILE:LINE: field: expected …`. */
export interface SkillProblem {
  file: string;
  line: number;
  field?: string;
  message: string;
}

/** A usable skill: its frontmatter as agent reads it, and its body (loaded on activation only). */
export interface Skill {
  name: string;
  description: string;
  /** The SKILL.md, or the legacy command file (`.claude/commands/review.md`). */
  file: string;
  /** The skill's folder (real path); undefined for a legacy command file, which has none. */
  dir?: string;
  scope: SkillScope;
  /** The Markdown after the frontmatter. */
  body: string;
  /** `allowed-tools`, one entry per tool as written (`Read`, `Bash(git diff:*)`, `exec:git status`). */
  allowedTools: string[];
  /** `disable-model-invocation: true`: only the user (`/name`) activates it; not in the model's catalog. */
  disableModelInvocation: boolean;
  /** `user-invocable: false`: not offered as `/name`, nor in the `/` menu. */
  userInvocable: boolean;
  /** `context: fork`: runs as a sub-agent whose system prompt is the body. */
  fork: boolean;
  /** `argument-hint`, shown after `/name` in the menu. */
  argumentHint?: string;
  /** Problems that did not stop it from loading (an unknown field, a folder named otherwise). */
  problems: SkillProblem[];
}

/** The skills of a session: the usable ones by name, and what discovery had to say. */
export interface SkillSet {
  /** Usable skills by name, in precedence order (the winner of a name clash only). */
  skills: Map<string, Skill>;
  /** Files refused or invalid, and skills hidden by a name clash: one warning each. */
  warnings: string[];
  /** The project is in the user's `trusted_projects`: its skills' `allowed-tools` count (never for exec). */
  projectTrusted: boolean;
}

/** `FILE:LINE: field: message`, the form every skill problem is printed in. */
export function formatSkillProblem(p: SkillProblem): string {
  return `${p.file}:${p.line}: ${p.field ? `${p.field}: ` : ""}${p.message}`;
}

/** What activations left behind for one agent's conversation: carried across a chat's runs for the root. */
export interface ActivationState {
  /** Skills whose body is already in the conversation (each is loaded once). */
  activated: Set<string>;
  /** Activated skills' folders, readable (read only) by the agent and its children. */
  readRoots: string[];
  /** Allow rules activated skills granted (skill-grants.ts), for the agent and its children. */
  grants: string[];
}

/**
 * A skill activation as the transcript recorded it when it happened (the root's `skill_activated` event):
 * the only thing a continued conversation restores activations from (skill-activation.ts
 * restoreRecordedActivations). Message text is never read for activations.
 */
export interface SkillActivationRecord {
  skill: string;
  /** The SKILL.md (or command file) that was activated: a skill of that name elsewhere now is not restored. */
  path: string;
  by: "model" | "user";
}

/** A session's skills and the root conversation's activations (a new session, or `/clear`, starts over). */
export interface SkillSession {
  set: SkillSet;
  root: ActivationState;
}

/** A fresh activation state. */
export function newActivationState(): ActivationState {
  return { activated: new Set(), readRoots: [], grants: [] };
}
