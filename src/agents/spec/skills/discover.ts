import { readdir, realpath, stat } from "node:fs/promises";
import path from "node:path";
import { isPathInside, readConfigFileResult } from "../../../kernel/index.ts";
import {
  existingSources,
  type SkillSearchOptions,
  type SkillSource,
  skillSearchPath,
} from "./search-path.ts";
import type { Skill, SkillScope, SkillSet } from "./types.ts";
import { formatSkillProblem } from "./types.ts";
import { parseCommandFile, parseSkillFile, type SkillParse } from "./validate.ts";

/**
 * Finds the skills of a workspace. Precedence on a name clash (reported once, as a warning, as agent
 * announces a project agent spec that overrides a user's): the project's skills first, as the
 * specification's implementation guide states the convention (agentskills.io "Adding skills support",
 * "Handling name collisions": "project-level skills override user-level skills"), nearest folder first from
 * the workspace up to the repository root (the same directories as AGENTS.md), each with `.agents/skills/`
 * (the cross-agent folder) before `.claude/skills/`, and skill folders before the legacy command files
 * (`.agent/commands/*.md`, `.claude/commands/*.md`); then the user's (`$XDG_CONFIG_HOME/agent/skills/`,
 * then `~/.agents/skills/`). A project skill is instructions only: it cannot grant itself tools
 * (skill-grants.ts), so overriding a user's skill gains a repository nothing a file in it could not say.
 *
 * Every file is read through the guarded reader (kernel/config-file.ts): a FIFO, a device, a file over
 * 1 MiB or a symlink out of its root (the repository for project skills, the folder searched for the user's)
 * is refused with a warning; an invalid skill is a warning naming its file, line and field. Nothing here
 * fails a run.
 */

/** One file found: the skill or command it holds, with its problems. */
export interface SkillFileResult extends SkillParse {
  file: string;
  scope: SkillScope;
  /** Why the guarded reader refused the file. */
  refused?: string;
}

/** Reads every skill of the given folders (in order); never throws. */
export async function readSkillSources(sources: readonly SkillSource[]): Promise<SkillFileResult[]> {
  const perSource = await Promise.all(sources.map((s) => readSource(s)));
  return perSource.flat();
}

async function readSource(source: SkillSource): Promise<SkillFileResult[]> {
  let entries: string[];
  try {
    entries = source.only !== undefined ? [source.only] : (await readdir(source.dir)).sort();
  } catch {
    return [];
  }
  const within = await realpath(source.within).catch(() => source.within);
  if (source.layout === "commands") {
    const files = entries.filter((e) => e.toLowerCase().endsWith(".md")).map((e) => path.join(source.dir, e));
    return Promise.all(
      files.map((file) =>
        readOne(file, within, source.scope, (text) => parseCommandFile(text, file, source.scope)),
      ),
    );
  }
  const results = await Promise.all(
    entries.map((entry) => readFolder(path.join(source.dir, entry), within, source.scope)),
  );
  return results.filter((r): r is SkillFileResult => r !== undefined);
}

/** A skill folder's SKILL.md (or skill.md, which the reference parser also accepts). */
async function readFolder(
  folder: string,
  within: string,
  scope: SkillScope,
): Promise<SkillFileResult | undefined> {
  let realFolder: string;
  try {
    realFolder = await realpath(folder);
    if (!(await stat(realFolder)).isDirectory()) return undefined;
  } catch {
    return undefined;
  }
  if (!isPathInside(realFolder, within))
    return {
      file: folder,
      scope,
      problems: [],
      refused: `a symlink out of ${within} (to ${realFolder}); refused`,
    };
  for (const name of ["SKILL.md", "skill.md"]) {
    const file = path.join(folder, name);
    const result = await readOne(file, within, scope, (text) =>
      parseSkillFile(text, file, realFolder, scope),
    );
    if (result.refused !== "missing") return result;
  }
  return undefined;
}

async function readOne(
  file: string,
  within: string,
  scope: SkillScope,
  parse: (text: string) => SkillParse,
): Promise<SkillFileResult> {
  const read = await readConfigFileResult(file, { within });
  if ("missing" in read) return { file, scope, problems: [], refused: "missing" };
  if ("refused" in read) return { file, scope, problems: [], refused: read.refused };
  return { file, scope, ...parse(read.text) };
}

/** Every skill by name, in precedence order, with a warning for each problem and each clash. */
export function collectSkills(results: readonly SkillFileResult[], projectTrusted: boolean): SkillSet {
  const skills = new Map<string, Skill>();
  const warnings: string[] = [];
  for (const r of results) {
    if (r.refused !== undefined) {
      warnings.push(`skill file ${r.file} skipped: ${r.refused}`);
      continue;
    }
    for (const p of r.problems) warnings.push(`skill ${r.skill ? "" : "skipped: "}${formatSkillProblem(p)}`);
    if (!r.skill) continue;
    const first = skills.get(r.skill.name);
    if (first) {
      warnings.push(
        `skill "${r.skill.name}" in ${r.file} is hidden by the ${first.scope} skill of the same name in ${first.file}`,
      );
      continue;
    }
    skills.set(r.skill.name, r.skill);
  }
  return { skills, warnings, projectTrusted };
}

/** Discovers the skills of a workspace; never throws. */
export async function discoverSkills(
  options: SkillSearchOptions & { projectTrusted?: boolean },
): Promise<SkillSet> {
  const sources = await existingSources(await skillSearchPath(options));
  return collectSkills(await readSkillSources(sources), options.projectTrusted === true);
}
