/**
 * `agent skills list|show|validate`: discovery as a run sees it (src/agents/spec/skills/), reported. Problems
 * go to stderr as `FILE:LINE: field: message`; `validate` exits 3 when there is any, `list` and `show` only
 * report them (a run loads a skill despite cosmetic problems, as the specification's guide advises).
 */
import { realpath, stat } from "node:fs/promises";
import path from "node:path";
import { collectSkills, readSkillSources, type SkillFileResult } from "../../agents/spec/skills/discover.ts";
import { existingSources, type SkillSource, skillSearchPath } from "../../agents/spec/skills/search-path.ts";
import { formatSkillProblem, type Skill } from "../../agents/spec/skills/types.ts";
import { ExitCode } from "../../kernel/index.ts";
import { didYouMean } from "../../kernel/text/did-you-mean.ts";
import { type CommandIo, processIo } from "../shared/io/command-io.ts";
import { safeLine } from "../shared/io/terminal-out.ts";

/** One file found, as `skills list` reports it. */
export interface SkillRow {
  name?: string;
  scope: string;
  path: string;
  description?: string;
  /** A nearer (or project) skill of the same name hides this one. */
  hidden_by?: string;
  user_invocable?: boolean;
  model_invocable?: boolean;
  context?: "fork";
  problems: string[];
}

async function found(io: CommandIo): Promise<SkillFileResult[]> {
  const sources = await existingSources(await skillSearchPath({ workspaceRoot: io.cwd, env: io.env }));
  return readSkillSources(sources);
}

function rowsOf(results: readonly SkillFileResult[]): SkillRow[] {
  const winners = collectSkills(results, false).skills;
  return results.map((r) => {
    const problems =
      r.refused !== undefined ? [`${r.file}: ${r.refused}`] : r.problems.map(formatSkillProblem);
    const skill = r.skill;
    if (!skill) return { scope: r.scope, path: r.file, problems };
    const winner = winners.get(skill.name);
    return {
      name: skill.name,
      scope: skill.scope,
      path: skill.file,
      description: skill.description,
      ...(winner && winner.file !== skill.file ? { hidden_by: winner.file } : {}),
      user_invocable: skill.userInvocable,
      model_invocable: !skill.disableModelInvocation,
      ...(skill.fork ? { context: "fork" as const } : {}),
      problems,
    };
  });
}

/** `agent skills list`: every skill file found, in precedence order. */
export async function listSkills(flags: { json?: boolean }, io: CommandIo = processIo()): Promise<number> {
  const rows = rowsOf(await found(io));
  if (flags.json) {
    io.stdout.json({ skills: rows }, 2);
    return ExitCode.done;
  }
  if (rows.length === 0) {
    io.stdout.write(
      "no skills found (looked in .agents/skills, .claude/skills, .agent/commands, .claude/commands from here up to the repository root, $XDG_CONFIG_HOME/agent/skills and ~/.agents/skills)\n",
    );
    return ExitCode.done;
  }
  for (const row of rows) {
    const flags = [
      row.hidden_by ? `hidden by ${row.hidden_by}` : "",
      row.user_invocable === false ? "not /name" : "",
      row.model_invocable === false ? "user only" : "",
      row.context ? "fork" : "",
    ].filter(Boolean);
    const name = row.name ?? "(invalid)";
    const marks = flags.length > 0 ? `  [${flags.map((flag) => safeLine`${flag}`).join(", ")}]` : "";
    io.stdout.write(`${safeLine`${name}  ${row.scope}  ${row.path}`}${marks}\n`);
    if (row.description) io.stdout.write(safeLine`    ${row.description}\n`);
    for (const problem of row.problems) io.stdout.write(safeLine`    problem: ${problem}\n`);
  }
  return ExitCode.done;
}

/** `agent skills show NAME`: the skill a run would use under that name. */
export async function showSkill(
  name: string,
  flags: { json?: boolean },
  io: CommandIo = processIo(),
): Promise<number> {
  const set = collectSkills(await found(io), false);
  const skill = set.skills.get(name.normalize("NFKC"));
  if (!skill) {
    const names = [...set.skills.keys()].sort();
    const known = names.join(", ") || "none";
    const near = didYouMean(name.normalize("NFKC"), names);
    io.stderr.write(safeLine`agent: no skill named "${name}"${near} (known: ${known})\n`);
    return ExitCode.usage;
  }
  if (flags.json) {
    io.stdout.json(skillJson(skill), 2);
    return ExitCode.done;
  }
  // Each field is one line (safeLine); the instructions after the blank line keep their own lines.
  const lines = [
    safeLine`name: ${skill.name}`,
    safeLine`description: ${skill.description}`,
    safeLine`source: ${skill.scope} ${skill.file}`,
    ...(skill.dir ? [safeLine`folder: ${skill.dir}`] : []),
    ...(skill.allowedTools.length > 0 ? [safeLine`allowed-tools: ${skill.allowedTools.join(" ")}`] : []),
    ...(skill.fork ? ["context: fork"] : []),
    ...(skill.disableModelInvocation ? ["disable-model-invocation: true"] : []),
    ...(!skill.userInvocable ? ["user-invocable: false"] : []),
    ...skill.problems.map((p) => safeLine`problem: ${formatSkillProblem(p)}`),
    "",
    skill.body,
  ];
  io.stdout.write(`${lines.join("\n")}\n`);
  return ExitCode.done;
}

function skillJson(skill: Skill) {
  return {
    name: skill.name,
    description: skill.description,
    scope: skill.scope,
    path: skill.file,
    ...(skill.dir ? { folder: skill.dir } : {}),
    allowed_tools: skill.allowedTools,
    disable_model_invocation: skill.disableModelInvocation,
    user_invocable: skill.userInvocable,
    ...(skill.fork ? { context: "fork" } : {}),
    ...(skill.argumentHint ? { argument_hint: skill.argumentHint } : {}),
    problems: skill.problems.map(formatSkillProblem),
    body: skill.body,
  };
}

/**
 * `agent skills validate [PATH]`: each problem on stderr as `FILE:LINE: field: message`, one `ok` line per
 * valid skill on stdout; exit 3 when any problem was found, 2 when PATH holds no skill.
 */
export async function validateSkills(
  target: string | undefined,
  io: CommandIo = processIo(),
): Promise<number> {
  let results: SkillFileResult[];
  if (target === undefined) results = await found(io);
  else {
    const sources = await sourcesAt(path.resolve(io.cwd, target));
    if (typeof sources === "string") {
      io.stderr.write(safeLine`agent: ${target}: ${sources}\n`);
      return ExitCode.usage;
    }
    results = await readSkillSources(sources);
    if (results.length === 0) {
      io.stderr.write(
        safeLine`agent: ${target}: no SKILL.md found (expected a skill folder or a folder of them)\n`,
      );
      return ExitCode.usage;
    }
  }
  let bad = 0;
  for (const r of results) {
    if (r.refused !== undefined) {
      bad++;
      io.stderr.write(safeLine`${r.file}:1: ${r.refused}\n`);
      continue;
    }
    for (const p of r.problems) io.stderr.write(safeLine`${formatSkillProblem(p)}\n`);
    if (r.problems.length > 0 || !r.skill) bad++;
    else io.stdout.write(safeLine`ok ${r.skill.name} ${r.file}\n`);
  }
  if (bad > 0) {
    io.stderr.write(`agent: ${bad} of ${results.length} skill file(s) have problems\n`);
    return ExitCode.config;
  }
  return ExitCode.done;
}

/** The folder(s) to read for PATH: a skill folder (or its SKILL.md) alone, else a folder of skill folders. */
async function sourcesAt(target: string): Promise<SkillSource[] | string> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(target);
  } catch {
    return "does not exist";
  }
  const folder = info.isDirectory() ? target : path.dirname(target);
  if (!info.isDirectory() && !/^skill\.md$/i.test(path.basename(target)))
    return "not a skill folder or SKILL.md";
  const real = await realpath(folder);
  const hasSkill = await stat(path.join(folder, "SKILL.md")).then(
    () => true,
    () =>
      stat(path.join(folder, "skill.md")).then(
        () => true,
        () => false,
      ),
  );
  if (hasSkill) {
    // A skill folder: read as the only entry of its parent, within the folder itself.
    return [
      {
        dir: path.dirname(folder),
        scope: "user",
        layout: "skills",
        within: path.dirname(real),
        only: path.basename(folder),
      },
    ];
  }
  return [{ dir: folder, scope: "user", layout: "skills", within: real }];
}
