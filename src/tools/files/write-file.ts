/** write_file {path, content}: creates or replaces a whole file (parents created); the display is a diff. */

import { z } from "zod";
import { definePrimitive } from "../define.ts";
import { pathTarget } from "../policy-target.ts";
import { countLines, plural } from "../truncate.ts";
import { writeFileAtomic } from "./atomic-write.ts";
import { unifiedDiff } from "./diff.ts";
import { readTextIfExists, statOrNull } from "./files.ts";

const schema = z.object({
  path: z.string().min(1).describe("File to write, relative to the workspace or absolute."),
  content: z.string().describe("The complete new content of the file."),
});
export type WriteFileArgs = z.infer<typeof schema>;

export const writeFileTool = definePrimitive<WriteFileArgs>({
  name: "write_file",
  description:
    "Create a file or replace its entire content. Missing parent directories are created. " +
    "To change part of an existing file, prefer an edit tool (edit_file or apply_patch).",
  schema,
  readOnly: false,
  policyTarget: (args, ctx) => pathTarget(args.path, ctx),
  async preview(args, ctx) {
    const abs = await ctx.workspace.resolve(args.path);
    const rel = ctx.workspace.relative(abs);
    return unifiedDiff(
      rel,
      await readTextIfExists(abs, rel, ctx.workspace).catch(() => null),
      args.content,
      ctx.signal,
    );
  },
  async run(args, ctx) {
    const abs = await ctx.workspace.resolve(args.path);
    const rel = ctx.workspace.relative(abs);
    if ((await statOrNull(abs))?.isDirectory()) throw new Error(`${rel} is a directory`);
    // A binary or unreadable old file still gets replaced; the diff then shows it as absent.
    const before = await readTextIfExists(abs, rel, ctx.workspace).catch(() => null);
    await writeFileAtomic(ctx.workspace, abs, rel, args.content);
    const lines = countLines(args.content);
    const verb = before === null ? "Created" : "Wrote";
    return {
      modelText: `${verb} ${rel} (${lines} ${plural(lines, "line")})`,
      display: unifiedDiff(rel, before, args.content, ctx.signal),
      isError: false,
    };
  },
});

/** The policy target of a single-path mutating tool. */
