/** glob {pattern, path?}: file paths under a workspace directory matching a glob pattern. */

import { stat } from "node:fs/promises";
import { z } from "zod";
import { definePrimitive } from "../define.ts";
import { readTarget } from "../policy-target.ts";
import { listSome, plural } from "../truncate.ts";
import { skipListFor, walkFiles } from "./walk.ts";

/** Paths returned at most. */
export const GLOB_MAX_RESULTS = 500;

const schema = z.object({
  pattern: z.string().min(1).describe("Glob pattern relative to path, e.g. **/*.ts or src/*.json."),
  path: z.string().optional().describe("Directory to search (default: the workspace root)."),
});
export type GlobArgs = z.infer<typeof schema>;

export const globTool = definePrimitive<GlobArgs>({
  name: "glob",
  description:
    "Find files by name with a glob pattern (*, **, ?, {a,b}, [abc]), relative to path. Returns matching " +
    `file paths relative to the workspace, sorted, at most ${GLOB_MAX_RESULTS}. Skips .git and node_modules ` +
    "unless the pattern names them.",
  schema,
  readOnly: true,
  policyTarget: (args, ctx) => readTarget(args.path ?? ".", ctx),
  async preview(args) {
    return `glob ${args.pattern} in ${args.path ?? "."}`;
  },
  async run(args, ctx) {
    if (args.pattern.startsWith("/") || args.pattern.split("/").includes("..")) {
      throw new Error(`glob pattern ${args.pattern} must be relative to path and must not contain '..'`);
    }
    const base = await ctx.workspace.resolveForRead(args.path ?? ".");
    if (!(await stat(base).catch(() => null))?.isDirectory()) {
      throw new Error(`${args.path ?? "."} is not a directory`);
    }
    const matcher = new Bun.Glob(args.pattern.replace(/^(\.\/)+/, ""));
    const found: string[] = [];
    const special: string[] = [];
    let capped = false;
    for await (const file of walkFiles(base, { skip: skipListFor(args.pattern), signal: ctx.signal })) {
      if (!matcher.match(file.rel)) continue;
      if (file.special !== undefined) {
        special.push(`${ctx.workspace.relative(file.abs)} (${file.special})`);
        continue;
      }
      if (found.length >= GLOB_MAX_RESULTS) {
        capped = true;
        break;
      }
      found.push(ctx.workspace.relative(file.abs));
    }
    const skipped = special.length === 0 ? "" : `\n\n(skipped, not regular files: ${listSome(special)})`;
    if (found.length === 0) {
      return {
        modelText: `No files match ${args.pattern}${skipped}`,
        display: "glob: no files",
        isError: false,
      };
    }
    found.sort();
    const note = capped ? `\n\n(showing the first ${GLOB_MAX_RESULTS}; use a narrower pattern or path)` : "";
    return {
      modelText: found.join("\n") + note + skipped,
      display: `glob ${args.pattern}: ${found.length}${capped ? "+" : ""} ${plural(found.length, "file")}`,
      isError: false,
    };
  },
});
