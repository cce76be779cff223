/**
 * The diff a write shows has bounded cost: a total rewrite of 12,000 lines (minutes of Myers diff before)
 * finishes with a note in place of the diff, a small change in the same big file still gets its real
 * diff, and a run already aborted gets the note without any diff computed.
 */
import { afterAll, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { editFileTool } from "../../../src/tools/files/edit-file.ts";
import { writeFileTool } from "../../../src/tools/files/write-file.ts";
import { cleanup, contextFor, tempDir } from "../helpers.ts";

const dirs: string[] = [];
afterAll(async () => cleanup(...dirs));

const lines = (prefix: string, n: number) =>
  `${Array.from({ length: n }, (_, i) => `${prefix} ${i}`).join("\n")}\n`;

test("a 12,000-line total rewrite is written and shows a note instead of a diff", async () => {
  const root = await tempDir("agent-diff-");
  dirs.push(root);
  writeFileSync(join(root, "gen.txt"), lines("old line", 12_000));
  const ctx = await contextFor(root);
  const preview = await writeFileTool.preview({ path: "gen.txt", content: lines("new line", 12_000) }, ctx);
  expect(preview).toBe(
    "--- a/gen.txt\n+++ b/gen.txt\n(diff not shown: 12000 old and 12000 new lines differ, more than the 4000 a diff is computed for)\n",
  );
  const out = await writeFileTool.run({ path: "gen.txt", content: lines("new line", 12_000) }, ctx);
  expect(out.modelText).toBe("Wrote gen.txt (12000 lines)");
  expect(out.display).toContain("(diff not shown: 12000 old and 12000 new lines differ");
  expect(readFileSync(join(root, "gen.txt"), "utf8")).toBe(lines("new line", 12_000));
});

test("one changed line in the same big file still shows its diff", async () => {
  const root = await tempDir("agent-diff-small-");
  dirs.push(root);
  writeFileSync(join(root, "gen.txt"), lines("old line", 12_000));
  const out = await editFileTool.run(
    { path: "gen.txt", old_string: "old line 6000\n", new_string: "changed 6000\n" },
    await contextFor(root),
  );
  expect(out.display).toContain("@@ -5998,7 +5998,7 @@");
  expect(out.display).toContain("-old line 6000\n+changed 6000\n");
});

test("once the run is aborted no diff is computed for the approval preview", async () => {
  const root = await tempDir("agent-diff-abort-");
  dirs.push(root);
  const controller = new AbortController();
  controller.abort();
  const preview = await writeFileTool.preview(
    { path: "a.txt", content: "one\n" },
    await contextFor(root, { signal: controller.signal }),
  );
  expect(preview).toBe("--- /dev/null\n+++ b/a.txt\n(diff not shown: the run was interrupted)\n");
});
