import { makeEvent } from "../../../kernel/index.ts";
import { modelInvocable, skillsFor } from "../../spec/skills/catalog.ts";
import { skillGrants } from "../../spec/skills/grants.ts";
import { substituteSkill } from "../../spec/skills/substitute.ts";
import type { Skill, SkillActivationRecord } from "../../spec/skills/types.ts";
import type { Run } from "../run-state.ts";

/**
 * What activating a skill does to an agent (DESIGN "Skills"): its folder becomes readable, read only, by
 * the agent's file tools and its children's (Workspace.withReadOnlyRoot); its `allowed-tools` become allow
 * rules for the agent and its children when trust allows (grants.ts); a `skill_activated` event names it
 * and its path. Nothing is run. The root's state lives in the session, so a chat's later messages keep it
 * (setup.ts picks the state: the session's for the root, a new one for a child).
 */

/** What skills act on: the run's options (its children's template), its identity, its activations and its act
 * context (the live pipeline's workspace and gate). Setup hands it over (setup.ts). */
export type SkillHost = Pick<Run, "options" | "who" | "activations" | "act">;

/** The skills this agent may see: its spec's `skills:` capability over the session's skills. */
export function agentSkills(host: SkillHost): Skill[] {
  return skillsFor(host.options.skills?.set, host.options.spec.skills);
}

/** The skills this agent's model may activate (the catalog and the `skill` tool's names). */
export function modelSkills(host: SkillHost): Skill[] {
  return modelInvocable(agentSkills(host));
}

/**
 * Applies what earlier activations left (a chat's root on its next message): the folders and grants.
 * Called once the registry exists.
 */
export function restoreActivations(host: SkillHost): void {
  const state = host.activations;
  for (const dir of state.readRoots) widen(host, dir);
  if (state.grants.length > 0) grant(host, state.grants);
}

/**
 * A continued conversation (`-c`, `--resume`, a continued chat): the activations its transcript recorded
 * when they happened (`skill_activated` records, resume.ts) count again, once each, under today's skills
 * and rules, each announced by a `skill_activated` event marked `restored`. Message text is never read
 * for activations: a forked skill's answer or a piped goal can imitate a skill's body. A record is not
 * restored, with a warning, when its skill is gone or now comes from another file, when only the user
 * may activate it (`disable-model-invocation`: they type `/name` again), when the agent's spec does not
 * offer it, or when a rule denies or asks for it (`--deny skill:NAME`).
 */
export function restoreRecordedActivations(host: SkillHost, records: readonly SkillActivationRecord[]): void {
  const set = host.options.skills?.set;
  if (!set || host.who.depth !== 0) return;
  for (const record of records) {
    if (host.activations.activated.has(record.skill)) continue;
    const skill = set.skills.get(record.skill);
    const refused = restoreRefusal(host, record, skill);
    if (refused !== undefined || skill === undefined) {
      const message = `skill ${record.skill} not restored from the session: ${refused ?? "it no longer exists"}`;
      host.options.emit(makeEvent(host.who, "warning", { message, code: "skills" }));
      continue;
    }
    activate(host, skill, record.by, true);
  }
}

/** Why a recorded activation is not restored today; undefined when it may be. */
function restoreRefusal(
  host: SkillHost,
  record: SkillActivationRecord,
  skill: Skill | undefined,
): string | undefined {
  if (skill === undefined) return "it no longer exists";
  if (skill.file !== record.path) return `the skill now comes from ${skill.file}, not ${record.path}`;
  if (skill.disableModelInvocation)
    return `only the user activates it (disable-model-invocation); type /${skill.name} to activate it again`;
  if (!modelSkills(host).includes(skill)) return `agent ${host.who.name} is not offered it`;
  const effect = host.options.gate.effectOf?.({
    tool: "skill",
    targets: [skill.name],
    readOnly: false,
    sensitive: false,
    allowByDefault: true,
  });
  if (effect === undefined) return "this session's gate cannot confirm it is allowed";
  if (effect !== "allow") return `a rule ${effect === "deny" ? "denies" : "asks for"} skill:${skill.name}`;
  return undefined;
}

/** Activates `skill` for this agent (once per conversation); false when it was already active. `restored`:
 * a continued conversation's recorded activation, activated again (restoreRecordedActivations). */
export function activate(host: SkillHost, skill: Skill, by: "model" | "user", restored = false): boolean {
  const state = host.activations;
  if (state.activated.has(skill.name)) return false;
  state.activated.add(skill.name);
  if (skill.dir !== undefined) {
    state.readRoots.push(skill.dir);
    widen(host, skill.dir);
  }
  const { rules, ignored } = skillGrants(skill, host.options.skills?.set.projectTrusted === true);
  const invalid = rules.length > 0 ? grant(host, rules) : [];
  const granted = rules.filter((_, i) => !invalid[i]);
  state.grants.push(...granted);
  const problems = [ignored, ...invalid.filter((x): x is string => x !== undefined)]
    .filter(Boolean)
    .join("; ");
  host.options.emit(
    makeEvent(host.who, "skill_activated", {
      skill: skill.name,
      path: skill.file,
      scope: skill.scope,
      by,
      fork: skill.fork,
      granted,
      ...(restored ? { restored: true } : {}),
      ...(problems !== "" ? { ignored: problems } : {}),
    }),
  );
  return true;
}

/** The text the model receives for an activated (not forked) skill: its body, substituted, and its folder. */
export function activatedText(skill: Skill, args: string): string {
  const body = substituteSkill(skill.body, args, skill.dir);
  const folder =
    skill.dir !== undefined
      ? `\nThe skill's folder is ${skill.dir}: files its instructions name are relative to it; read them with read_file using absolute paths (read only). Run its scripts only through exec.`
      : "";
  return `<skill name="${skill.name}" path="${skill.file}">\n${body}\n</skill>${folder}`;
}

// The agent's options are its children's template (setup.ts childRunOptions): changing them here passes the
// folder and the grants down to every child started after the activation.
function widen(host: SkillHost, dir: string): void {
  host.options.workspace = host.options.workspace.withReadOnlyRoot(dir);
  host.act.workspace = host.options.workspace;
}

/** Adds allow rules to the agent's gate; per rule, why it did not parse (undefined when it did). */
function grant(host: SkillHost, rules: string[]): (string | undefined)[] {
  const gate = host.options.gate;
  if (!gate.withAllowRules) return rules.map(() => "this gate takes no skill grants");
  const invalid: (string | undefined)[] = [];
  let view = gate;
  for (const rule of rules) {
    const added = view.withAllowRules?.([rule]);
    if (!added || added.invalid.length > 0) invalid.push(added?.invalid[0] ?? "not added");
    else {
      invalid.push(undefined);
      view = added.gate;
    }
  }
  host.options.gate = view;
  host.act.gate = view;
  return invalid;
}

/** The goal of a run the user started with `/name args`: the skill's body, substituted. */
export function userSkillGoal(skill: Skill, args: string): string {
  const typed = `/${skill.name}${args !== "" ? ` ${args}` : ""}`;
  return `The user ran the skill command ${typed}. Follow the skill's instructions:\n\n${activatedText(skill, args)}`;
}
