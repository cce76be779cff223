/** grep {pattern, path?, glob?}: a regular expression over the text files under a workspace path. */

import { readFile, stat } from "node:fs/promises";
import { z } from "zod";
import { definePrimitive } from "./define.ts";
import { looksBinary } from "./files.ts";
import { readTarget } from "./policy-target.ts";
import { cutLine, plural } from "./truncate.ts";
import { skipListFor, walkFiles } from "./walk.ts";

/** Matching lines returned at most. */
export const GREP_MAX_MATCHES = 200;
/** Characters of a matching line shown. */
const GREP_LINE_LIMIT = 400;
/** Files larger than this are not searched. */
const GREP_MAX_FILE_BYTES = 5 * 1024 * 1024;

const schema = z.object({
  pattern: z.string().min(1).describe("JavaScript regular expression; prefix with (?i) to ignore case."),
  path: z.string().optional().describe("File or directory to search (default: the workspace root)."),
  glob: z.string().optional().describe("Only search files matching this glob, e.g. *.ts or src/**/*.py."),
});
export type GrepArgs = z.infer<typeof schema>;

export const grepTool = definePrimitive<GrepArgs>({
  name: "grep",
  description:
    "Search file contents with a regular expression (JavaScript syntax, matched per line). Returns " +
    `\`path:line: text\` for each matching line, at most ${GREP_MAX_MATCHES}. Skips .git, node_modules and ` +
    "binary files. Narrow the search with path (a file or directory) and glob (e.g. *.ts).",
  schema,
  readOnly: true,
  policyTarget: (args, ctx) => readTarget(args.path ?? ".", ctx),
  async preview(args) {
    return `grep /${args.pattern}/ in ${args.path ?? "."}${args.glob ? ` (${args.glob})` : ""}`;
  },
  async run(args, ctx) {
    const regex = compile(args.pattern);
    const base = await ctx.workspace.resolve(args.path ?? ".");
    const info = await stat(base).catch(() => null);
    if (info === null) throw new Error(`path not found: ${args.path}`);
    const filter = args.glob === undefined ? null : globFilter(args.glob);
    const files = info.isDirectory()
      ? walkFiles(base, { skip: skipListFor(`${args.path ?? ""} ${args.glob ?? ""}`), signal: ctx.signal })
      : single(base);
    const matches: string[] = [];
    const filesWithMatches = new Set<string>();
    let capped = false;
    outer: for await (const file of files) {
      if (filter && !filter(file.rel)) continue;
      const text = await readSearchable(file.abs);
      if (text === null) continue;
      const rel = ctx.workspace.relative(file.abs);
      const lines = text.split("\n");
      for (let i = 0; i < lines.length; i++) {
        const line = (lines[i] ?? "").replace(/\r$/, "");
        if (!regex.test(line)) continue;
        if (matches.length >= GREP_MAX_MATCHES) {
          capped = true;
          break outer;
        }
        matches.push(`${rel}:${i + 1}: ${cutLine(line, GREP_LINE_LIMIT)}`);
        filesWithMatches.add(rel);
      }
    }
    const where = ctx.workspace.relative(base);
    if (matches.length === 0) {
      return {
        modelText: `No matches for /${args.pattern}/ in ${where}`,
        display: "grep: no matches",
        isError: false,
      };
    }
    const note = capped
      ? `\n\n(showing the first ${GREP_MAX_MATCHES} matches; narrow the pattern, path or glob to see the rest)`
      : "";
    const fileCount = filesWithMatches.size;
    return {
      modelText: matches.join("\n") + note,
      display: `grep /${args.pattern}/: ${matches.length}${capped ? "+" : ""} ${plural(matches.length, "match", "matches")} in ${fileCount} ${plural(fileCount, "file")}`,
      isError: false,
    };
  },
});

function compile(pattern: string): RegExp {
  const ignoreCase = pattern.startsWith("(?i)");
  const source = ignoreCase ? pattern.slice(4) : pattern;
  try {
    return new RegExp(source, ignoreCase ? "i" : "");
  } catch (error) {
    throw new Error(`invalid regular expression /${pattern}/: ${(error as Error).message}`);
  }
}

/** A glob without `/` matches a file name at any depth (like ripgrep's --glob); otherwise the relative path. */
export function globFilter(glob: string): (rel: string) => boolean {
  const matcher = new Bun.Glob(glob);
  const byName = !glob.includes("/");
  return (rel) => matcher.match(rel) || (byName && matcher.match(rel.slice(rel.lastIndexOf("/") + 1)));
}

async function* single(abs: string) {
  yield { abs, rel: abs.slice(abs.lastIndexOf("/") + 1) };
}

/** The text of a file worth searching, or null for large or binary files. */
async function readSearchable(abs: string): Promise<string | null> {
  try {
    const info = await stat(abs);
    if (info.size > GREP_MAX_FILE_BYTES) return null;
    const bytes = await readFile(abs);
    return looksBinary(bytes) ? null : bytes.toString("utf8");
  } catch {
    return null;
  }
}
