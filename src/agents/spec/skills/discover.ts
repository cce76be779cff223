import type { Dirent } from "node:fs";
import { readdir, realpath, stat } from "node:fs/promises";
import path from "node:path";
import {
  CONFIG_FILE_CAP,
  isPathInside,
  readConfigFileResult,
  regularRefusal,
} from "../../../kernel/files/config-file.ts";
import { readRegularFileSync } from "../../../kernel/files/regular-file.ts";
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
 * Every file is read through the guarded reader (kernel/files/config-file.ts): a FIFO, a device, a file over
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
  const within = await realpath(source.within).catch(() => source.within);
  let realDir: string;
  let entries: Dirent[];
  try {
    realDir = await realpath(source.dir);
    entries = await readdir(realDir, { withFileTypes: true });
  } catch {
    return [];
  }
  if (!isPathInside(realDir, within))
    return [
      {
        file: source.dir,
        scope: source.scope,
        problems: [],
        refused: `a symlink out of ${within} (to ${realDir}); refused`,
      },
    ];
  if (source.only !== undefined) entries = entries.filter((e) => e.name === source.only);
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  // An entry that is itself no symlink lies inside the (real) folder: read directly; a symlink
  // takes the guarded reader's full checks.
  const at = (entry: Dirent) => ({
    shown: path.join(source.dir, entry.name),
    real: path.join(realDir, entry.name),
  });
  if (source.layout === "commands") {
    const files = entries.filter((e) => e.name.toLowerCase().endsWith(".md") && !e.isDirectory());
    return Promise.all(
      files.map((entry) => {
        const { shown, real } = at(entry);
        const parse = (text: string) => parseCommandFile(text, shown, source.scope);
        return readOne(shown, entry.isFile() ? real : undefined, within, source.scope, parse);
      }),
    );
  }
  const results = await Promise.all(
    entries
      .filter((e) => e.isDirectory() || e.isSymbolicLink())
      .map((entry) => {
        const { shown, real } = at(entry);
        return readFolder(shown, entry.isDirectory() ? real : undefined, within, source.scope);
      }),
  );
  return results.filter((r): r is SkillFileResult => r !== undefined);
}

/** A skill folder's SKILL.md (or skill.md, which the reference parser also accepts). `real`: its known real path. */
async function readFolder(
  folder: string,
  real: string | undefined,
  within: string,
  scope: SkillScope,
): Promise<SkillFileResult | undefined> {
  let realFolder = real;
  if (realFolder === undefined) {
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
  }
  const knownFolder = realFolder;
  for (const name of ["SKILL.md", "skill.md"]) {
    const file = path.join(folder, name);
    const parse = (text: string) => parseSkillFile(text, file, knownFolder, scope);
    const result = await readOne(file, path.join(knownFolder, name), within, scope, parse);
    if (result.refused !== "missing") return result;
  }
  return undefined;
}

/**
 * Reads one file. `direct`: a path whose folder is known to be real and inside the root, read as a regular
 * file without following a symlink (regular-file.ts: lstat, non-blocking open, fstat, bounded read); a
 * symlink there, or any other path, goes through the guarded config reader (realpath inside the root).
 */
async function readOne(
  file: string,
  direct: string | undefined,
  within: string,
  scope: SkillScope,
  parse: (text: string) => SkillParse,
): Promise<SkillFileResult> {
  if (direct !== undefined) {
    try {
      // Synchronous: a small regular file (or a refusal) in a few microseconds; bench/skills.ts.
      const read = readRegularFileSync(direct, CONFIG_FILE_CAP, { noFollow: true });
      if (read.ok) return { file, scope, ...parse(read.bytes.toString("utf8")) };
      if (!(read.why === "special" && read.kind === "a symbolic link"))
        return { file, scope, problems: [], refused: regularRefusal(read, CONFIG_FILE_CAP) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT")
        return { file, scope, problems: [], refused: "missing" };
    }
  }
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
