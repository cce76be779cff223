/**
 * Reads and validates a suite file: YAML through the guarded config reader, the shape through
 * suite-schema.ts, then what the schema cannot see (unique ids, fixture folders and schema files that
 * exist). Every problem is a {file, line, field, message}, printed as `FILE:LINE: FIELD: message`; all
 * of them are collected before the command exits 3, so one run of `agent eval` lists them all.
 */
import { existsSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { isMap, LineCounter, type Node, parseDocument } from "yaml";
import type { z } from "zod";
import { locate, locateExact } from "../../../agents/spec/spec-yaml.ts";
import {
  MAX_ALIAS_COUNT,
  readConfigFileResult,
  yamlAliasMessage,
} from "../../../kernel/files/config-file.ts";
import { nearestName } from "../../../kernel/text/nearest-name.ts";
import { KNOWN_FIELDS, type SuiteTaskFile, suiteSchema, taskSchema } from "./suite-schema.ts";
import { resolveTasks, type SuiteTask } from "./suite-task.ts";
import { type SuiteGrant, suiteGrants } from "./suite-trust.ts";

export interface SuiteError {
  file: string;
  line: number;
  /** `tasks[2].checks[0]`; absent for a file-level problem. */
  field?: string;
  message: string;
  /** The file itself does not exist: a mistyped argument rather than an invalid suite. */
  missing?: true;
}

export interface Suite {
  file: string;
  name: string;
  tasks: SuiteTask[];
  /** Its settings that loosen the user's rules (suite-trust.ts), refused unless the user trusts it. */
  grants: SuiteGrant[];
}

export type SuiteLoad = { suite: Suite } | { errors: SuiteError[] };

/** `FILE:LINE: FIELD: message`. */
export function formatSuiteError(error: SuiteError): string {
  return `${error.file}:${error.line}: ${error.field ? `${error.field}: ` : ""}${error.message}`;
}

/** Loads `file` (a path as the user typed it; errors name it so). */
export async function loadSuite(file: string): Promise<SuiteLoad> {
  const read = await readConfigFileResult(resolve(file), {});
  if ("missing" in read) return { errors: [{ file, line: 1, message: "no such file", missing: true }] };
  if ("refused" in read) return { errors: [{ file, line: 1, message: read.refused }] };
  return parseSuite(read.text, file);
}

/** Validates suite text; `file` names it in errors and anchors relative paths. */
export function parseSuite(text: string, file: string): SuiteLoad {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  const lineOf = (offset: number | undefined): number =>
    offset === undefined ? 1 : lineCounter.linePos(offset).line;
  if (doc.errors.length > 0)
    return {
      errors: doc.errors.map((e) => ({
        file,
        line: lineOf(e.pos[0]),
        message: `invalid YAML: ${e.message}`,
      })),
    };
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    return { errors: [{ file, line: 1, message: yamlAliasMessage(error) }] };
  }
  const root = doc.contents as Node | null;
  if (!root || !isMap(root))
    return {
      errors: [{ file, line: 1, message: "expected a mapping with tasks: (and optionally name, defaults)" }],
    };
  const at = (segments: (string | number)[]) => lineOf(locate(root, segments).range?.[0]);
  const parsed = suiteSchema.safeParse(value);
  if (!parsed.success) {
    // One pass: the tasks whose own shape is right still get the checks the schema cannot make
    // (missing folders, duplicate ids), so a second run does not bring up a second round of problems.
    const structural = parsed.error.issues.flatMap((issue) => issueErrors(issue, root, file, lineOf));
    const semantic = semanticErrors(wellFormedTasks(value), file, at);
    return { errors: [...structural, ...semantic].sort((a, b) => a.line - b.line) };
  }
  const errors = semanticErrors([...parsed.data.tasks.entries()], file, at);
  if (errors.length > 0) return { errors };
  const base = dirname(resolve(file));
  return {
    suite: {
      file,
      name: parsed.data.name ?? file,
      tasks: resolveTasks(parsed.data, base),
      grants: suiteGrants(parsed.data, at),
    },
  };
}

/** The tasks of a suite that failed the schema whose own shape is right, with their indexes. */
function wellFormedTasks(value: unknown): [number, SuiteTaskFile][] {
  const tasks = (value as { tasks?: unknown } | null)?.tasks;
  if (!Array.isArray(tasks)) return [];
  const out: [number, SuiteTaskFile][] = [];
  for (const [i, task] of tasks.entries()) {
    const parsed = taskSchema.safeParse(task);
    if (parsed.success) out.push([i, parsed.data]);
  }
  return out;
}

/** What the schema cannot check: duplicate ids, fixtures and schema files that are not there. */
function semanticErrors(
  tasks: [number, SuiteTaskFile][],
  file: string,
  at: (segments: (string | number)[]) => number,
): SuiteError[] {
  const base = dirname(resolve(file));
  const errors: SuiteError[] = [];
  const seen = new Map<string, number>();
  for (const [i, task] of tasks) {
    const first = seen.get(task.id);
    if (first !== undefined)
      errors.push({
        file,
        line: at(["tasks", i, "id"]),
        field: `tasks[${i}].id`,
        message: `"${task.id}" is already the id of tasks[${first}]; expected a unique id`,
      });
    else seen.set(task.id, i);
    if (typeof task.workspace === "string") {
      const dir = resolve(base, task.workspace);
      if (!isDirectory(dir))
        errors.push({
          file,
          line: at(["tasks", i, "workspace"]),
          field: `tasks[${i}].workspace`,
          message: `${task.workspace} is not a folder (resolved to ${dir}); expected the fixture folder, relative to the suite file`,
        });
    } else if (!isDirectory(resolve(base, task.workspace.git))) {
      errors.push({
        file,
        line: at(["tasks", i, "workspace", "git"]),
        field: `tasks[${i}].workspace.git`,
        message: `${task.workspace.git} is not a folder; expected a git repository, relative to the suite file`,
      });
    }
    if (task.schema !== undefined && !existsSync(resolve(base, task.schema)))
      errors.push({
        file,
        line: at(["tasks", i, "schema"]),
        field: `tasks[${i}].schema`,
        message: `${task.schema} does not exist; expected a JSON schema file, relative to the suite file`,
      });
    const expect = task.expect;
    if (
      expect?.min_denials !== undefined &&
      expect.max_denials !== undefined &&
      expect.min_denials > expect.max_denials
    )
      errors.push({
        file,
        line: at(["tasks", i, "expect", "min_denials"]),
        field: `tasks[${i}].expect.min_denials`,
        message: `${expect.min_denials} is above max_denials ${expect.max_denials}`,
      });
    if (expect?.answer_matches !== undefined && !validRegex(expect.answer_matches))
      errors.push({
        file,
        line: at(["tasks", i, "expect", "answer_matches"]),
        field: `tasks[${i}].expect.answer_matches`,
        message: "expected a valid regular expression",
      });
  }
  return errors;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function validRegex(source: string): boolean {
  try {
    new RegExp(source, "i");
    return true;
  } catch {
    return false;
  }
}

/** One zod issue as errors at the line of the field (the field's parent when it is missing). */
function issueErrors(
  issue: z.core.$ZodIssue,
  root: Node,
  file: string,
  lineOf: (offset: number | undefined) => number,
): SuiteError[] {
  const segments = issue.path.filter((p): p is string | number => typeof p !== "symbol");
  // A mapping where a string or a mapping may stand (a check, a workspace) with a misspelt field
  // (`rn:`): the mapping branch's unknown fields, with their "did you mean", say more than the union.
  if (issue.code === "invalid_union") {
    const unknown = issue.errors.flat().filter((sub) => sub.code === "unrecognized_keys");
    if (unknown.length > 0) {
      const whole = expectation(issue, segments);
      return unknown
        .flatMap((sub) => issueErrors({ ...sub, path: [...issue.path, ...sub.path] }, root, file, lineOf))
        .map((error) => ({ ...error, message: `${error.message} (${fieldName(segments)} is ${whole})` }));
    }
  }
  if (issue.code === "unrecognized_keys") {
    const known = knownFields(segments);
    return issue.keys.map((key) => {
      const near = nearestName(key, known);
      return {
        file,
        line: lineOf(locateExact(root, [...segments, key])?.range?.[0] ?? locate(root, segments).range?.[0]),
        field: fieldName([...segments, key]),
        message: `unknown field;${near ? ` did you mean "${near}"?` : ""} expected one of: ${known.join(", ")}`,
      };
    });
  }
  const missing = locateExact(root, segments) === undefined;
  const expected = expectation(issue, segments);
  return [
    {
      file,
      line: lineOf(locate(root, segments).range?.[0]),
      field: fieldName(segments),
      message: missing ? `missing; expected ${expected}` : `expected ${expected}`,
    },
  ];
}

function knownFields(segments: (string | number)[]): readonly string[] {
  const last = segments[segments.length - 1];
  if (segments.length === 0) return KNOWN_FIELDS.suite;
  if (last === "defaults") return KNOWN_FIELDS.defaults;
  if (last === "expect") return KNOWN_FIELDS.expect;
  if (last === "workspace") return KNOWN_FIELDS.workspace;
  if (segments.at(-2) === "checks") return KNOWN_FIELDS.check;
  return KNOWN_FIELDS.task;
}

function expectation(issue: z.core.$ZodIssue, segments: (string | number)[]): string {
  const last = segments[segments.length - 1];
  if (issue.code === "invalid_union") {
    if (last === "workspace") return "a folder path, or {git: REPO, ref: REF}";
    if (segments.at(-2) === "checks") return "a shell command, or {run: COMMAND, name?, timeout?}";
  }
  if (issue.code === "invalid_type")
    return issue.expected === "array"
      ? "a list"
      : issue.expected === "object"
        ? "a mapping"
        : `a ${issue.expected}`;
  if (issue.code === "invalid_value") return `one of: ${issue.values.map((v) => String(v)).join(", ")}`;
  if (issue.code === "too_small")
    return issue.origin === "array"
      ? `at least ${String(issue.minimum)} item${issue.minimum === 1 ? "" : "s"}`
      : issue.origin === "string"
        ? "a non-empty string"
        : `a number ${issue.inclusive ? ">=" : ">"} ${String(issue.minimum)}`;
  return issue.message;
}

/** `tasks[2].checks[0]`. */
function fieldName(segments: (string | number)[]): string {
  let out = "";
  for (const s of segments) out += typeof s === "number" ? `[${s}]` : out ? `.${s}` : s;
  return out;
}
