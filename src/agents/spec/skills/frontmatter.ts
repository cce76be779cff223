import { isMap, isScalar, LineCounter, parseDocument } from "yaml";
import { MAX_ALIAS_COUNT, yamlAliasMessage } from "../../../kernel/files/config-file.ts";
import type { SkillProblem } from "./types.ts";

/**
 * Splits a SKILL.md into its YAML frontmatter and Markdown body, as the specification's reference parser
 * does (github.com/agentskills/agentskills skills-ref/src/skills_ref/parser.py `parse_frontmatter`: the
 * file must start with `---`, and a second `---` closes the frontmatter), and parses the frontmatter with
 * line numbers for messages.
 */

/** The parsed frontmatter: each field's value and the line it is on. */
export interface Frontmatter {
  fields: Map<string, { value: unknown; line: number }>;
  body: string;
}

/** Frontmatter, or the problem that stops it being read. `optional`: a file without `---` is all body. */
export function parseFrontmatter(
  text: string,
  file: string,
  optional = false,
): { ok: true; value: Frontmatter } | { ok: false; problem: SkillProblem } {
  const fail = (line: number, message: string) => ({ ok: false as const, problem: { file, line, message } });
  const source = text.replace(/^\uFEFF/, "");
  if (!/^---\r?\n/.test(source)) {
    if (optional) return { ok: true, value: { fields: new Map(), body: source.trim() } };
    return fail(1, "expected the file to start with YAML frontmatter (a `---` line)");
  }
  const close = /^---[ \t]*$/m;
  const afterOpen = source.indexOf("\n") + 1;
  const rest = source.slice(afterOpen);
  const end = close.exec(rest);
  if (!end) return fail(1, "expected the frontmatter to be closed by a `---` line");
  const yamlText = rest.slice(0, end.index);
  const body = rest.slice(end.index + end[0].length).trim();
  const simple = simpleFields(yamlText);
  if (simple) return { ok: true, value: { fields: simple, body } };
  const lineCounter = new LineCounter();
  const doc = parseDocument(yamlText, { lineCounter, prettyErrors: false, uniqueKeys: true });
  // Frontmatter starts on the file's second line.
  const lineOf = (offset: number | undefined) =>
    offset === undefined ? 1 : lineCounter.linePos(offset).line + 1;
  const error = doc.errors[0];
  if (error) return fail(lineOf(error.pos[0]), `invalid YAML: ${error.message.split("\n")[0]}`);
  const fields = new Map<string, { value: unknown; line: number }>();
  if (doc.contents === null) return { ok: true, value: { fields, body } };
  if (!isMap(doc.contents))
    return fail(2, "expected the frontmatter to be a mapping (name: …, description: …)");
  let values: Record<string, unknown>;
  try {
    values = (doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) ?? {}) as Record<string, unknown>;
  } catch (e) {
    return fail(2, yamlAliasMessage(e));
  }
  for (const pair of doc.contents.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
    const line = lineOf(isScalar(pair.key) ? pair.key.range?.[0] : undefined);
    fields.set(key, { value: values[key], line });
  }
  return { ok: true, value: { fields, body } };
}

/**
 * A line `key: value`: the key, then the rest after the separating blanks. Each part is matched by one
 * character class with no overlap between its neighbours, so the match is linear in the line's length
 * (a lazy value followed by optional trailing blanks was quadratic: 40,000 spaces took seconds).
 */
const KEY_AND_REST = /^([A-Za-z][A-Za-z0-9_-]*):[ \t]+/;
/** The first character of a value YAML reads as a plain scalar (no indicator, no blank). */
const PLAIN_START = /^[^\s[\]{}"'&*!|>%@`#,?:-]/;
/** Plain values YAML 1.2 (core schema) would read as something other than a string. */
const NOT_A_STRING =
  /^(?:null|Null|NULL|~|[-+]?(?:\.inf|\.Inf|\.INF|\.nan|\.NaN|\.NAN)|[-+]?[0-9][0-9_.eExXoO+a-fA-F-]*)$/;

/**
 * The fields of a frontmatter whose every line is `key: plain text` (most skills' are), read without the
 * YAML parser, which costs about 0.1 ms a file (200 skills: 20 ms, bench/skills.ts); undefined for
 * anything else (quotes, lists, block scalars, comments, `: ` inside a value, a repeated key), which the
 * YAML parser reads. The values are what YAML gives for such lines: the text, or true/false.
 */
function simpleFields(yamlText: string): Frontmatter["fields"] | undefined {
  const fields: Frontmatter["fields"] = new Map();
  const lines = yamlText.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] as string).replace(/\r$/, "");
    if (line.trim() === "") continue;
    const match = KEY_AND_REST.exec(line);
    if (!match) return undefined;
    const key = match[1] as string;
    const text = trimBlanksEnd(line.slice(match[0].length));
    if (!PLAIN_START.test(text) || text.includes("\t")) return undefined;
    if (fields.has(key) || text.includes(": ") || text.includes(" #") || NOT_A_STRING.test(text))
      return undefined;
    const value = text === "true" ? true : text === "false" ? false : text;
    if (/^(?:True|TRUE|False|FALSE)$/.test(text)) return undefined;
    fields.set(key, { value, line: i + 2 });
  }
  return fields;
}

/** `text` without its trailing spaces and tabs, by one backward scan. */
function trimBlanksEnd(text: string): string {
  let end = text.length;
  while (end > 0 && (text[end - 1] === " " || text[end - 1] === "\t")) end--;
  return text.slice(0, end);
}
