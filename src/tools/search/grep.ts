/**
 * grep {pattern, path?, glob?}: a regular expression over the text files under a workspace path. The
 * search runs in a worker bounded by time and by the call's abort signal (grep-runner.ts), so no pattern
 * can hang the run; files it did not search (too large, FIFOs, devices) are named in the result.
 */

import { stat } from "node:fs/promises";
import { z } from "zod";
import { definePrimitive } from "../define.ts";
import { specialKind } from "../files/files.ts";
import { readTarget } from "../policy-target.ts";
import { listSome, plural } from "../truncate.ts";
import type { ToolContext } from "../types.ts";
import { GREP_TIME_LIMIT_MS, runSearch } from "./grep-runner.ts";
import { compilePattern, GREP_MAX_MATCHES, type GrepProgress, type GrepReply } from "./grep-search.ts";
import { skipListFor } from "./walk.ts";

export { GREP_MAX_MATCHES } from "./grep-search.ts";

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
    compilePattern(args.pattern); // a bad pattern fails here, with its message, before any worker starts
    const base = await ctx.workspace.resolveForRead(args.path ?? ".");
    const info = await stat(base).catch(() => null);
    if (info === null) throw new Error(`path not found: ${args.path}`);
    const kind = specialKind(info);
    if (kind !== null && kind !== "a directory") {
      throw new Error(`${args.path} is ${kind}, not a regular file or directory; grep does not read it`);
    }
    const outcome = await runSearch(
      {
        pattern: args.pattern,
        base,
        isDirectory: info.isDirectory(),
        skip: skipListFor(`${args.path ?? ""} ${args.glob ?? ""}`),
        ...(args.glob === undefined ? {} : { glob: args.glob }),
      },
      { signal: ctx.signal, timeoutMs: ctx.searchTimeoutMs ?? GREP_TIME_LIMIT_MS },
    );
    const stopped = (text: string) => ({
      modelText: `Error: ${text}`,
      display: `grep: ${text}`,
      isError: true,
    });
    switch (outcome.kind) {
      case "aborted":
        return stopped("aborted");
      case "timeout":
        return stopped(timeoutNote((ctx.searchTimeoutMs ?? GREP_TIME_LIMIT_MS) / 1000, outcome.progress));
      case "failed":
        throw new Error(outcome.message);
      case "done":
        return describe(args, outcome.reply, ctx, base);
    }
  },
});

/** What the time limit interrupted, in numbers: the listing of files, or the search (N of M files). */
export function timeoutNote(seconds: number, progress: GrepProgress): string {
  const limit = `the ${seconds} s time limit was reached`;
  if (progress.total === undefined) {
    return `${limit} while listing files (${progress.listed} found so far); narrow path or glob`;
  }
  const matches = `${progress.matches} ${plural(progress.matches, "match", "matches")} so far`;
  return (
    `${limit} after searching about ${progress.searched} of ${progress.total} ${plural(progress.total, "file")} ` +
    `(${matches}); narrow path or glob (and simplify the pattern if it nests quantifiers such as (a+)+)`
  );
}

function describe(args: GrepArgs, reply: GrepReply, ctx: ToolContext, base: string) {
  const rel = (abs: string) => ctx.workspace.relative(abs);
  const skippedNote = skippedText(reply, rel);
  if (reply.hits.length === 0) {
    return {
      modelText: `No matches for /${args.pattern}/ in ${rel(base)}${skippedNote}`,
      display: `grep: no matches${reply.skipped.length > 0 ? ` (${reply.skipped.length} skipped)` : ""}`,
      isError: false,
    };
  }
  const lines = reply.hits.map((hit) => `${rel(hit.abs)}:${hit.line}: ${hit.text}`);
  const note = reply.capped
    ? `\n\n(showing the first ${GREP_MAX_MATCHES} matches; narrow the pattern, path or glob to see the rest)`
    : "";
  const count = reply.hits.length;
  const fileCount = new Set(reply.hits.map((hit) => hit.abs)).size;
  return {
    modelText: lines.join("\n") + note + skippedNote,
    display: `grep /${args.pattern}/: ${count}${reply.capped ? "+" : ""} ${plural(count, "match", "matches")} in ${fileCount} ${plural(fileCount, "file")}`,
    isError: false,
  };
}

/** `(skipped 2 files not searched: big.log (too large ...), pipe (a FIFO))`, or "" when none. */
function skippedText(reply: GrepReply, rel: (abs: string) => string): string {
  const n = reply.skipped.length;
  if (n === 0) return "";
  const named = listSome(reply.skipped.map((s) => `${rel(s.abs)} (${s.why})`));
  return `\n\n(${n} ${plural(n, "file")} not searched: ${named})`;
}
