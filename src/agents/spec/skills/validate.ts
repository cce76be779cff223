import path from "node:path";
import { controlCharacterIn, stringifyForTerminal } from "../../../kernel/text/terminal-text.ts";
import { type Frontmatter, parseFrontmatter } from "./frontmatter.ts";
import type { Skill, SkillProblem, SkillScope } from "./types.ts";

/**
 * Validates a SKILL.md against the Agent Skills specification (agentskills.io/specification, "Frontmatter")
 * with the rules of its reference validator (github.com/agentskills/agentskills,
 * skills-ref/src/skills_ref/validator.py, Apache-2.0): `name` 1-64 characters after NFKC normalisation,
 * lowercase letters and digits (Unicode letters allowed, as the reference accepts `技能`) and hyphens, no
 * leading, trailing or doubled hyphen, equal to its folder's name; `description` 1-1024 characters;
 * `compatibility` at most 500; no field outside the specification. Claude Code's extensions
 * (code.claude.com/docs/en/skills, as quoted in github.com/anthropics/claude-code issue 56494 and the
 * field tables of skill authors' references: argument-hint, disable-model-invocation, user-invocable,
 * context, agent, model, effort, hooks) are accepted too, so the skills people already have are not
 * reported for them; agent honours the first four.
 */

export const MAX_NAME_LENGTH = 64;
export const MAX_DESCRIPTION_LENGTH = 1024;
export const MAX_COMPATIBILITY_LENGTH = 500;

/** The fields of the specification (agentskills.io/specification "Frontmatter"). */
export const SPEC_FIELDS = ["name", "description", "license", "compatibility", "metadata", "allowed-tools"];
/** Claude Code's extensions (code.claude.com/docs/en/skills): accepted; the first four are honoured. */
export const EXTENSION_FIELDS = [
  "argument-hint",
  "disable-model-invocation",
  "user-invocable",
  "context",
  "agent",
  "model",
  "effort",
  "hooks",
];
/** A legacy command file's fields (Claude Code's `.claude/commands/*.md`): all optional. */
const COMMAND_FIELDS = ["description", "argument-hint", "allowed-tools", "model", "disable-model-invocation"];

/** Characters counted as Python's `len` counts them (code points), as the reference does. */
function length(text: string): number {
  return [...text].length;
}

/** What is wrong with a skill name (the reference's `_validate_name`), without the folder check. */
export function nameProblems(raw: string): string[] {
  const name = raw.trim().normalize("NFKC");
  const out: string[] = [];
  if (length(name) > MAX_NAME_LENGTH)
    out.push(`expected at most ${MAX_NAME_LENGTH} characters (it has ${length(name)})`);
  if (name !== name.toLowerCase()) out.push("expected lowercase letters only");
  if (name.startsWith("-") || name.endsWith("-")) out.push("expected no hyphen at the start or the end");
  if (name.includes("--")) out.push("expected no consecutive hyphens (--)");
  if (!/^[\p{L}\p{N}-]*$/u.test(name)) out.push("expected only letters, digits and hyphens");
  return out;
}

/** An {@link Add} that puts a problem of `file` in `problems`: on the line given, else its field's, else 1. */
function problemAdder(problems: SkillProblem[], file: string, fields: Frontmatter["fields"]): Add {
  return (field, message, line) => {
    problems.push({
      file,
      line: line ?? fields.get(field ?? "")?.line ?? 1,
      ...(field ? { field } : {}),
      message,
    });
  };
}

/** The outcome of reading one file: the skill when usable, and every problem found. */
export interface SkillParse {
  skill?: Skill;
  problems: SkillProblem[];
}

/** Validates a SKILL.md's text; `folder` is the directory holding it (its name must equal `name`). */
export function parseSkillFile(text: string, file: string, folder: string, scope: SkillScope): SkillParse {
  const parsed = parseFrontmatter(text, file);
  if (!parsed.ok) return { problems: [parsed.problem] };
  const { fields } = parsed.value;
  const problems: SkillProblem[] = [];
  const add = problemAdder(problems, file, fields);
  unknownFields(fields, [...SPEC_FIELDS, ...EXTENSION_FIELDS], add);
  const name = fields.get("name")?.value;
  let usableName: string | undefined;
  if (name === undefined) add("name", "missing: expected the skill's name (its folder's name)", 2);
  else if (typeof name !== "string" || name.trim() === "") add("name", "expected a non-empty string");
  else if (controlCharacterIn(name) !== undefined)
    add("name", controlCharacterProblem(name), fields.get("name")?.line);
  else {
    const nameIssues = nameProblems(name);
    for (const why of nameIssues) add("name", `${why}: "${name}"`);
    const normalized = name.trim().normalize("NFKC");
    const folderName = path.basename(folder).normalize("NFKC");
    if (folderName !== normalized)
      add("name", `expected the folder's name "${path.basename(folder)}" (the skill is named "${name}")`);
    // Lenient loading (agentskills.io "Adding skills support", "Lenient validation": a name that breaks the
    // rules or differs from its folder is warned about and loaded anyway) as long as it can be a `/name`.
    if (/^[^\s/\\]+$/.test(normalized)) usableName = normalized;
  }
  const description = checkDescription(fields, add);
  const compatibility = fields.get("compatibility");
  if (compatibility !== undefined) {
    if (typeof compatibility.value !== "string") add("compatibility", "expected a string");
    else if (length(compatibility.value) > MAX_COMPATIBILITY_LENGTH)
      add(
        "compatibility",
        `expected at most ${MAX_COMPATIBILITY_LENGTH} characters (it has ${length(compatibility.value)})`,
      );
  }
  const metadata = fields.get("metadata");
  if (
    metadata !== undefined &&
    (typeof metadata.value !== "object" || metadata.value === null || Array.isArray(metadata.value))
  )
    add("metadata", "expected a mapping of string keys to string values");
  const options = commonOptions(fields, add);
  problems.sort((a, b) => a.line - b.line);
  if (usableName === undefined || description === undefined) return { problems };
  const skill: Skill = {
    name: usableName,
    description,
    file,
    dir: folder,
    scope,
    body: parsed.value.body,
    ...options,
    problems,
  };
  return { skill, problems };
}

/**
 * A legacy command file (`.agent/commands/review.md`, `.claude/commands/review.md`) as a skill without a
 * folder: its name is the file's name, its frontmatter optional; without a `description` the body's first
 * line describes it (as Claude Code does for commands).
 */
export function parseCommandFile(text: string, file: string, scope: SkillScope): SkillParse {
  const parsed = parseFrontmatter(text, file, true);
  if (!parsed.ok) return { problems: [parsed.problem] };
  const { fields, body } = parsed.value;
  const problems: SkillProblem[] = [];
  const add = problemAdder(problems, file, fields);
  unknownFields(fields, COMMAND_FIELDS, add);
  const name = path.basename(file).replace(/\.md$/i, "").normalize("NFKC");
  const control = controlCharacterIn(name) !== undefined;
  if (control) add(undefined, `file name: ${controlCharacterProblem(name)}`);
  const nameIssues = control ? [] : nameProblems(name);
  for (const why of nameIssues) add(undefined, `file name: ${why}: "${name}"`);
  const given = fields.get("description")?.value;
  const firstLine = body
    .split("\n")
    .find((l) => l.trim() !== "")
    ?.replace(/^#+\s*/, "")
    .trim();
  const description = typeof given === "string" && given.trim() !== "" ? given.trim() : firstLine;
  if (description === undefined || description === "")
    add("description", "expected a description or a non-empty body");
  const options = commonOptions(fields, add);
  problems.sort((a, b) => a.line - b.line);
  if (control || !/^[^\s/\\]+$/.test(name) || !description) return { problems };
  const skill: Skill = {
    name,
    description: [...description].slice(0, MAX_DESCRIPTION_LENGTH).join(""),
    file,
    scope,
    body,
    ...options,
    problems,
  };
  return { skill, problems };
}

/**
 * Why a name holding a control character or line break is refused (never loaded, never shown raw): such a
 * name would drive the terminal of whoever lists the skills, or forge a line of its own. The name is
 * quoted as JSON, so the problem itself shows `\u001b` rather than the character.
 */
function controlCharacterProblem(name: string): string {
  return `expected no control characters or line breaks (found ${controlCharacterIn(name)}): ${stringifyForTerminal(name)}; the skill is not loaded`;
}

/** Reports a problem of a field (undefined: of the file); on `line`, else the field's line. */
type Add = (field: string | undefined, message: string, line?: number) => void;

function unknownFields(fields: Frontmatter["fields"], known: string[], add: Add): void {
  for (const [key, { line }] of fields)
    if (!known.includes(key))
      add(key, `not a field of the Agent Skills specification; expected one of ${known.join(", ")}`, line);
}

function checkDescription(fields: Frontmatter["fields"], add: Add): string | undefined {
  const entry = fields.get("description");
  if (entry === undefined) {
    add("description", "missing: expected what the skill does and when to use it", 2);
    return undefined;
  }
  if (typeof entry.value !== "string" || entry.value.trim() === "") {
    add("description", "expected a non-empty string");
    return undefined;
  }
  if (length(entry.value) > MAX_DESCRIPTION_LENGTH)
    add(
      "description",
      `expected at most ${MAX_DESCRIPTION_LENGTH} characters (it has ${length(entry.value)})`,
    );
  // A longer description is reported above and loaded cut: a repository's text never grows every prompt.
  return [...entry.value.trim()].slice(0, MAX_DESCRIPTION_LENGTH).join("");
}

/** The options every skill and command file may set. */
function commonOptions(fields: Frontmatter["fields"], add: Add) {
  const bool = (field: string, fallback: boolean): boolean => {
    const entry = fields.get(field);
    if (entry === undefined) return fallback;
    if (typeof entry.value === "boolean") return entry.value;
    add(field, "expected true or false");
    return fallback;
  };
  const tools = fields.get("allowed-tools");
  let allowedTools: string[] = [];
  if (tools !== undefined) {
    // The specification: "Space-separated string of pre-approved tools"; Claude Code also takes a YAML list.
    if (typeof tools.value === "string") allowedTools = splitToolList(tools.value);
    else if (Array.isArray(tools.value) && tools.value.every((t) => typeof t === "string"))
      allowedTools = tools.value.flatMap((t: string) => splitToolList(t));
    else add("allowed-tools", "expected a space-separated string of tools (or a list of strings)");
  }
  const context = fields.get("context");
  if (context !== undefined && context.value !== "fork" && context.value !== "inherit")
    add("context", `expected fork or inherit, not ${JSON.stringify(context.value)}`);
  const hint = fields.get("argument-hint")?.value;
  return {
    allowedTools,
    disableModelInvocation: bool("disable-model-invocation", false),
    userInvocable: bool("user-invocable", true),
    fork: context?.value === "fork",
    ...(typeof hint === "string" && hint.trim() !== "" ? { argumentHint: hint.trim() } : {}),
  };
}

/** `Read Bash(git diff:*) Grep` → its entries: spaces inside parentheses do not split. */
export function splitToolList(text: string): string[] {
  const out: string[] = [];
  let current = "";
  let depth = 0;
  for (const c of text) {
    if (c === "(") depth++;
    if (c === ")") depth = Math.max(0, depth - 1);
    if ((c === " " || c === "," || c === "\t" || c === "\n") && depth === 0) {
      if (current !== "") out.push(current);
      current = "";
    } else current += c;
  }
  if (current !== "") out.push(current);
  return out;
}
