/** edit_file {path, old_string, new_string, replace_all?}: exact string replacement; the display is a diff. */

import { z } from "zod";
import { CallCannotApply } from "../../kernel/run-events/approvals.ts";
import { definePrimitive } from "../define.ts";
import { pathTarget } from "../policy-target.ts";
import type { ToolContext } from "../types.ts";
import { writeFileAtomic } from "./atomic-write.ts";
import { unifiedDiff } from "./diff.ts";
import { readTextFile } from "./files.ts";

const schema = z.object({
  path: z.string().min(1).describe("File to edit, relative to the workspace or absolute."),
  old_string: z.string().min(1).describe("Exact text to replace, including whitespace and indentation."),
  new_string: z.string().describe("Text to put in its place."),
  replace_all: z
    .boolean()
    .optional()
    .describe("Replace every occurrence instead of exactly one (default false)."),
});
export type EditFileArgs = z.infer<typeof schema>;

/** The file before and after an edit. */
export interface PlannedEdit {
  abs: string;
  rel: string;
  before: string;
  after: string;
  count: number;
}

export const editFileTool = definePrimitive<EditFileArgs>({
  name: "edit_file",
  description:
    "Replace exact text in an existing file. old_string must match the file exactly (whitespace and " +
    "indentation included) and occur exactly once, unless replace_all is true; include enough surrounding " +
    "lines to make it unique. Read the file first. To create a file, use write_file.",
  schema,
  readOnly: false,
  policyTarget: (args, ctx) => pathTarget(args.path, ctx),
  async preview(args, ctx) {
    const edit = await planEdit(args, ctx);
    return unifiedDiff(edit.rel, edit.before, edit.after, ctx.signal);
  },
  async run(args, ctx) {
    const edit = await planEdit(args, ctx);
    await writeFileAtomic(ctx.workspace, edit.abs, edit.rel, edit.after);
    const times = edit.count === 1 ? "1 occurrence" : `${edit.count} occurrences`;
    return {
      modelText: `Edited ${edit.rel}: replaced ${times}`,
      display: unifiedDiff(edit.rel, edit.before, edit.after, ctx.signal),
      isError: false,
    };
  },
});

/**
 * Computes an edit without writing it; throws with a message the model can act on: CallCannotApply when
 * the strings do not fit the file (so the gate returns the failure instead of asking for an edit that
 * cannot happen), the reader's error when the file cannot be read.
 */
export async function planEdit(args: EditFileArgs, ctx: ToolContext): Promise<PlannedEdit> {
  const abs = await ctx.workspace.resolve(args.path);
  const rel = ctx.workspace.relative(abs);
  if (args.old_string === args.new_string)
    throw new CallCannotApply("old_string and new_string are identical");
  const before = await readTextFile(abs, rel, ctx.workspace);
  let oldString = args.old_string;
  let newString = args.new_string;
  let count = occurrences(before, oldString);
  if (count === 0 && before.includes("\r\n") && !oldString.includes("\r\n")) {
    // The file uses CRLF line endings; the model almost always writes LF.
    oldString = oldString.replaceAll("\n", "\r\n");
    newString = newString.replaceAll("\n", "\r\n");
    count = occurrences(before, oldString);
  }
  if (count === 0) {
    throw new CallCannotApply(
      `old_string not found in ${rel}. It must match exactly, including whitespace and indentation; ` +
        "read the file again and copy the text.",
    );
  }
  if (count > 1 && args.replace_all !== true) {
    throw new CallCannotApply(
      `old_string occurs ${count} times in ${rel}. Add surrounding lines to make it unique, ` +
        "or set replace_all to replace every occurrence.",
    );
  }
  const after = before.split(oldString).join(newString);
  return { abs, rel, before, after, count };
}

function occurrences(text: string, search: string): number {
  let n = 0;
  for (let i = text.indexOf(search); i !== -1; i = text.indexOf(search, i + search.length)) n++;
  return n;
}
