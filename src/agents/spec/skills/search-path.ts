import { stat } from "node:fs/promises";
import { homedir } from "node:os";
import path from "node:path";
import { configDir } from "../../../kernel/files/paths.ts";
import { searchedDirectories } from "../instructions.ts";
import type { SkillScope } from "./types.ts";

/**
 * The folders skills are searched in (precedence: discover.ts), and which of them exist. Light on purpose:
 * a session checks these first and loads the skills modules (YAML parsing, validation) only when a folder
 * exists, so a machine without skills starts as before.
 */

/** One folder searched, in precedence order. */
export interface SkillSource {
  dir: string;
  scope: SkillScope;
  /** `skills`: one folder per skill holding SKILL.md; `commands`: legacy `*.md` command files. */
  layout: "skills" | "commands";
  /** Real paths every file must lie inside. */
  within: string;
  /** Read only this entry of `dir` (`agent skills validate PATH` of one skill folder). */
  only?: string;
}

type Env = Record<string, string | undefined>;

export interface SkillSearchOptions {
  workspaceRoot: string;
  env?: Env;
  home?: string;
}

/** The folders searched, highest precedence first. */
export async function skillSearchPath(options: SkillSearchOptions): Promise<SkillSource[]> {
  const env = options.env ?? process.env;
  const home = path.resolve(options.home ?? env.HOME ?? homedir());
  const userDirs = [path.join(configDir(env), "skills"), path.join(home, ".agents", "skills")];
  const sources: SkillSource[] = [];
  const projectDirs = await searchedDirectories(path.resolve(options.workspaceRoot), home);
  const top = projectDirs[0] ?? options.workspaceRoot;
  for (const dir of [...projectDirs].reverse()) {
    for (const sub of [".agents/skills", ".claude/skills"])
      sources.push({ dir: path.join(dir, sub), scope: "project", layout: "skills", within: top });
    for (const sub of [".agent/commands", ".claude/commands"])
      sources.push({ dir: path.join(dir, sub), scope: "project", layout: "commands", within: top });
  }
  for (const dir of userDirs) sources.push({ dir, scope: "user", layout: "skills", within: dir });
  return sources;
}

/** The folders that exist (a cheap check: without one, the skills modules need not load at all). */
export async function existingSources(sources: readonly SkillSource[]): Promise<SkillSource[]> {
  const found = await Promise.all(
    sources.map((s) =>
      stat(s.dir).then(
        (st) => st.isDirectory(),
        () => false,
      ),
    ),
  );
  return sources.filter((_, i) => found[i]);
}
