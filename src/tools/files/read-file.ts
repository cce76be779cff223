/** read_file {path, offset?, limit?}: a text file with line numbers, a window of lines at a time. */

import { z } from "zod";
import { definePrimitive } from "../define.ts";
import { readTarget } from "../policy-target.ts";
import { countLines, cutLine, plural } from "../truncate.ts";
import { readTextFile } from "./files.ts";

/** Lines returned when the model gives no limit. */
export const DEFAULT_READ_LIMIT = 2_000;

const schema = z.object({
  path: z.string().min(1).describe("File to read, relative to the workspace or absolute."),
  offset: z.number().int().min(1).optional().describe("1-based line number to start at (default 1)."),
  limit: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(`Number of lines to return (default ${DEFAULT_READ_LIMIT}).`),
});
export type ReadFileArgs = z.infer<typeof schema>;

export const readFileTool = definePrimitive<ReadFileArgs>({
  name: "read_file",
  description:
    "Read a text file from the workspace. Returns lines prefixed with their 1-based line numbers " +
    `(\`   12\\tcode\`), at most ${DEFAULT_READ_LIMIT} lines unless you pass limit; use offset to page through ` +
    "long files. Very long lines are cut. Fails on directories and binary files.",
  schema,
  readOnly: true,
  policyTarget: (args, ctx) => readTarget(args.path, ctx),
  async preview(args) {
    return `read ${args.path}`;
  },
  async run(args, ctx) {
    const abs = await ctx.workspace.resolveForRead(args.path);
    const rel = ctx.workspace.relative(abs);
    const text = await readTextFile(abs, rel, ctx.workspace);
    const total = countLines(text);
    const start = (args.offset ?? 1) - 1;
    const limit = args.limit ?? DEFAULT_READ_LIMIT;
    if (total === 0) {
      return { modelText: `(${rel} is empty)`, display: `Read ${rel} (empty)`, isError: false };
    }
    if (start >= total) {
      return {
        modelText: `Error: offset ${start + 1} is past the end of ${rel} (${total} lines)`,
        display: `Error: offset past end of ${rel}`,
        isError: true,
      };
    }
    const shown = lineWindow(text, start, Math.min(limit, total - start));
    const width = String(start + shown.length).length;
    const body = shown
      .map((line, i) => `${String(start + i + 1).padStart(width)}\t${cutLine(line)}`)
      .join("\n");
    const end = start + shown.length;
    const more =
      end < total
        ? `\n\n(showing lines ${start + 1}-${end} of ${total}; pass offset ${end + 1} to read more)`
        : "";
    return {
      modelText: body + more,
      display: `Read ${rel} (${shown.length} ${plural(shown.length, "line")}, from line ${start + 1})`,
      isError: false,
    };
  },
});

/**
 * Lines `start` to `start + count - 1` (0-based) of `text`, split at "\n" as `text.split("\n")` would,
 * without splitting the rest: a long session reads a few lines of a large file per turn, and one string
 * per line of the whole file each time was garbage for the collector. `count` must not run past the end.
 */
export function lineWindow(text: string, start: number, count: number): string[] {
  let at = 0;
  for (let skipped = 0; skipped < start; skipped++) at = text.indexOf("\n", at) + 1;
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const end = text.indexOf("\n", at);
    lines.push(end === -1 ? text.slice(at) : text.slice(at, end));
    at = end + 1;
  }
  return lines;
}
