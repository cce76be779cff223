import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { chmod, mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { applyPatchTool } from "../../../src/tools/files/apply-patch.ts";
import { applyChunks } from "../../../src/tools/files/apply-patch-match.ts";
import { PatchParseError, parsePatch, patchPaths } from "../../../src/tools/files/apply-patch-parser.ts";
import { WorkspaceError } from "../../../src/tools/workspace.ts";
import { cleanup, contextFor, tempDir } from "../helpers.ts";

const dirs: string[] = [];
let root: string;
beforeEach(async () => {
  root = await tempDir();
  dirs.push(root);
});
afterAll(() => cleanup(...dirs));

const patch = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch"].join("\n");
const text = (path: string) => readFile(join(root, path), "utf8");
const exists = (path: string) => Bun.file(join(root, path)).exists();

describe("parsePatch", () => {
  test("parses add, delete, update with move, context and end-of-file chunks", () => {
    const hunks = parsePatch(
      patch(
        "*** Add File: new.txt",
        "+one",
        "+two",
        "*** Delete File: old.txt",
        "*** Update File: a.py",
        "*** Move to: b.py",
        "@@ def f():",
        " x = 1",
        "-y = 2",
        "+y = 3",
        "@@",
        "-last",
        "+final",
        "*** End of File",
      ),
    );
    expect(hunks).toEqual([
      { kind: "add", path: "new.txt", content: "one\ntwo\n" },
      { kind: "delete", path: "old.txt" },
      {
        kind: "update",
        path: "a.py",
        moveTo: "b.py",
        chunks: [
          {
            context: "def f():",
            oldLines: ["x = 1", "y = 2"],
            newLines: ["x = 1", "y = 3"],
            endOfFile: false,
          },
          { oldLines: ["last"], newLines: ["final"], endOfFile: true },
        ],
      },
    ]);
    expect(patchPaths(hunks)).toEqual(["new.txt", "old.txt", "a.py", "b.py"]);
  });

  test("accepts a heredoc-wrapped patch", () => {
    const wrapped = `<<'EOF'\n${patch("*** Add File: x", "+y")}\nEOF\n`;
    expect(parsePatch(wrapped)).toEqual([{ kind: "add", path: "x", content: "y\n" }]);
  });

  test("errors name the problem and the patch line", () => {
    expect(() => parsePatch("*** Add File: x\n+y")).toThrow(
      "first line of the patch must be '*** Begin Patch'",
    );
    expect(() => parsePatch("*** Begin Patch\n*** Add File: x\n+y")).toThrow("last line");
    expect(() => parsePatch(patch())).toThrow("the patch is empty");
    expect(() => parsePatch(patch("*** Frobnicate File: x"))).toThrow(
      "patch line 2: '*** Frobnicate File: x' is not a valid hunk header",
    );
    expect(() => parsePatch(patch("*** Update File: x"))).toThrow("Update File hunk for 'x' is empty");
    expect(() => parsePatch(patch("*** Update File: x", "@@", "-a", "@@", "junk"))).toThrow(PatchParseError);
  });
});

describe("applyChunks", () => {
  test("matches ignoring trailing whitespace and typographic punctuation", () => {
    const out = applyChunks(
      "say(“hi”)   \nnext\n",
      [{ oldLines: ['say("hi")'], newLines: ['say("bye")'], endOfFile: false }],
      "f",
    );
    expect(out).toBe('say("bye")\nnext\n');
  });

  test("keeps CRLF line endings", () => {
    const out = applyChunks("a\r\nb\r\n", [{ oldLines: ["b"], newLines: ["c"], endOfFile: false }], "f");
    expect(out).toBe("a\r\nc\r\n");
  });
});

describe("apply_patch", () => {
  test("applies a multi-file patch; the display is a diff per file, the model gets a summary", async () => {
    await writeFile(join(root, "keep.py"), "def f():\n    return 1\n");
    await writeFile(join(root, "gone.txt"), "bye\n");
    const out = await applyPatchTool.run(
      {
        patch: patch(
          "*** Add File: pkg/new.txt",
          "+fresh",
          "*** Update File: keep.py",
          "@@ def f():",
          "-    return 1",
          "+    return 2",
          "*** Delete File: gone.txt",
        ),
      },
      await contextFor(root),
    );
    expect(out.isError).toBe(false);
    expect(out.modelText).toBe("Success. Updated the following files:\nA pkg/new.txt\nM keep.py\nD gone.txt");
    expect(await text("pkg/new.txt")).toBe("fresh\n");
    expect(await text("keep.py")).toBe("def f():\n    return 2\n");
    expect(await exists("gone.txt")).toBe(false);
    expect(out.display).toContain("--- /dev/null\n+++ b/pkg/new.txt");
    expect(out.display).toContain("--- a/keep.py\n+++ b/keep.py");
    expect(out.display).toContain("-    return 1\n+    return 2");
    expect(out.display).toContain("--- a/gone.txt\n+++ /dev/null");
  });

  test("a context that does not match is an error naming the file and lines; nothing is written", async () => {
    await writeFile(join(root, "a.txt"), "one\ntwo\n");
    await writeFile(join(root, "b.txt"), "three\n");
    const out = await applyPatchTool.run(
      {
        patch: patch(
          "*** Update File: a.txt",
          "@@",
          "-one",
          "+ONE",
          "*** Update File: b.txt",
          "@@",
          "-four",
          "+FOUR",
        ),
      },
      await contextFor(root),
    );
    expect(out.isError).toBe(true);
    expect(out.modelText).toContain("failed to find the expected lines in b.txt:\nfour");
    expect(await text("a.txt")).toBe("one\ntwo\n");
  });

  test("a missing @@ context line is reported by name", async () => {
    await writeFile(join(root, "a.txt"), "one\n");
    const out = await applyPatchTool.run(
      { patch: patch("*** Update File: a.txt", "@@ class Missing:", "-one", "+two") },
      await contextFor(root),
    );
    expect(out.modelText).toContain("failed to find context 'class Missing:' in a.txt");
  });

  test("a path outside the workspace refuses the whole patch", async () => {
    const outside = await tempDir("agent-outside-");
    dirs.push(outside);
    await symlink(outside, join(root, "escape"));
    const ctx = await contextFor(root);
    for (const p of [
      patch("*** Add File: ok.txt", "+fine", "*** Add File: ../evil.txt", "+bad"),
      patch("*** Add File: ok.txt", "+fine", "*** Add File: escape/evil.txt", "+bad"),
      patch("*** Add File: ok.txt", "+fine", `*** Add File: ${join(outside, "evil.txt")}`, "+bad"),
    ]) {
      const out = await applyPatchTool.run({ patch: p }, ctx);
      expect(out.isError).toBe(true);
      expect(out.modelText).toContain("outside the workspace");
      await expect(applyPatchTool.policyTarget({ patch: p }, ctx)).rejects.toBeInstanceOf(WorkspaceError);
    }
    expect(await exists("ok.txt")).toBe(false);
    expect(await Bun.file(join(outside, "evil.txt")).exists()).toBe(false);
  });

  test("policy target lists every path a patch touches, move destinations included", async () => {
    await writeFile(join(root, "a.txt"), "x\n");
    const target = await applyPatchTool.policyTarget(
      {
        patch: patch(
          "*** Update File: a.txt",
          "*** Move to: moved/b.txt",
          "@@",
          "-x",
          "+y",
          "*** Add File: .agent/agents/evil.yaml",
          "+name: evil",
          "*** Delete File: c.txt",
        ),
      },
      await contextFor(root),
    );
    expect(target).toEqual({
      targets: ["a.txt", "moved/b.txt", ".agent/agents/evil.yaml", "c.txt"],
      sensitive: true,
    });
  });

  test("preview is the diff the patch would make, without writing", async () => {
    await writeFile(join(root, "a.txt"), "x\n");
    const diff = await applyPatchTool.preview(
      { patch: patch("*** Update File: a.txt", "@@", "-x", "+y") },
      await contextFor(root),
    );
    expect(diff).toBe("--- a/a.txt\n+++ b/a.txt\n@@ -1,1 +1,1 @@\n-x\n+y\n");
    expect(await text("a.txt")).toBe("x\n");
  });

  test("hunks apply in order: a file added then updated in the same patch", async () => {
    const out = await applyPatchTool.run(
      { patch: patch("*** Add File: n.txt", "+a", "+b", "*** Update File: n.txt", "@@", "-b", "+c") },
      await contextFor(root),
    );
    expect(out.isError).toBe(false);
    expect(await text("n.txt")).toBe("a\nc\n");
  });

  test("a write that fails midway restores the files already written", async () => {
    if (process.getuid?.() === 0) {
      // Root ignores directory permissions; use a path whose parent is a file instead.
      await writeFile(join(root, "blocker"), "i am a file\n");
    } else {
      await mkdir(join(root, "locked"));
      await chmod(join(root, "locked"), 0o500);
    }
    await writeFile(join(root, "first.txt"), "original\n");
    const target = process.getuid?.() === 0 ? "blocker/x.txt" : "locked/x.txt";
    const out = await applyPatchTool.run(
      {
        patch: patch(
          "*** Update File: first.txt",
          "@@",
          "-original",
          "+changed",
          `*** Add File: ${target}`,
          "+x",
        ),
      },
      await contextFor(root),
    );
    expect(out.isError).toBe(true);
    expect(out.modelText).toContain("the files were restored");
    expect(await text("first.txt")).toBe("original\n");
    if (process.getuid?.() !== 0) await chmod(join(root, "locked"), 0o700);
  });
});
