import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Redactor } from "../../../src/kernel/text/redact.ts";
import { editFileTool } from "../../../src/tools/files/edit-file.ts";
import { DEFAULT_READ_LIMIT, readFileTool } from "../../../src/tools/files/read-file.ts";
import { writeFileTool } from "../../../src/tools/files/write-file.ts";
import { MODEL_TEXT_LIMIT } from "../../../src/tools/truncate.ts";
import { cleanup, contextFor, tempDir } from "../helpers.ts";

const dirs: string[] = [];
let root: string;
beforeEach(async () => {
  root = await tempDir();
  dirs.push(root);
});
afterAll(() => cleanup(...dirs));

const text = (path: string) => readFile(join(root, path), "utf8");

describe("read_file", () => {
  test("returns numbered lines", async () => {
    await writeFile(join(root, "a.txt"), "alpha\nbeta\ngamma\n");
    const out = await readFileTool.run({ path: "a.txt" }, await contextFor(root));
    expect(out.isError).toBe(false);
    expect(out.modelText).toBe("1\talpha\n2\tbeta\n3\tgamma");
    expect(out.display).toBe("Read a.txt (3 lines, from line 1)");
  });

  test("offset and limit select a window and say how to read on", async () => {
    await writeFile(join(root, "n.txt"), Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join("\n"));
    const out = await readFileTool.run({ path: "n.txt", offset: 5, limit: 3 }, await contextFor(root));
    expect(out.modelText).toStartWith("5\tline 5\n6\tline 6\n7\tline 7\n\n");
    expect(out.modelText).toContain("showing lines 5-7 of 20; pass offset 8");
  });

  test(`reads at most ${DEFAULT_READ_LIMIT} lines by default and cuts long lines`, async () => {
    const lines = Array.from({ length: 2500 }, (_, i) => `l${i + 1}`);
    lines[0] = "x".repeat(5000);
    await writeFile(join(root, "big.txt"), lines.join("\n"));
    const out = await readFileTool.run({ path: "big.txt" }, await contextFor(root));
    expect(out.modelText).toContain("[line cut: 3000 more characters]");
    expect(out.modelText).toContain("\tl2000");
    expect(out.modelText).not.toContain("\tl2001");
    expect(out.modelText).toContain("pass offset 2001");
  });

  test("output past the model-text limit is truncated with a note", async () => {
    await writeFile(join(root, "wide.txt"), Array.from({ length: 1000 }, () => "y".repeat(100)).join("\n"));
    const out = await readFileTool.run({ path: "wide.txt" }, await contextFor(root));
    expect(out.modelText.length).toBeLessThan(MODEL_TEXT_LIMIT + 200);
    expect(out.modelText).toMatch(/\[output truncated: \d+ more characters \(\d+ lines\) not shown\]$/);
  });

  test("errors: missing file, directory, binary file, offset past the end", async () => {
    const ctx = await contextFor(root);
    await mkdir(join(root, "dir"));
    await writeFile(join(root, "bin.dat"), new Uint8Array([1, 2, 0, 3]));
    await writeFile(join(root, "short.txt"), "one\n");
    const missing = await readFileTool.run({ path: "nope.txt" }, ctx);
    expect(missing).toMatchObject({ isError: true, modelText: "Error: file not found: nope.txt" });
    // A path through a file (ENOTDIR) is missing too, not an internal error.
    expect((await readFileTool.run({ path: "short.txt/x" }, ctx)).modelText).toBe(
      "Error: file not found: short.txt/x",
    );
    expect((await readFileTool.run({ path: "dir" }, ctx)).modelText).toContain("dir is a directory");
    expect((await readFileTool.run({ path: "bin.dat" }, ctx)).modelText).toContain(
      "bin.dat is a binary file",
    );
    expect((await readFileTool.run({ path: "short.txt", offset: 9 }, ctx)).isError).toBe(true);
  });

  test("secrets are redacted from what the model reads", async () => {
    await writeFile(join(root, ".env"), "API_KEY=supersecretvalue42\n");
    const ctx = await contextFor(root, { redactor: new Redactor(["supersecretvalue42"]) });
    const out = await readFileTool.run({ path: ".env" }, ctx);
    expect(out.modelText).not.toContain("supersecretvalue42");
    expect(out.modelText).toContain("[REDACTED]");
  });

  test("arguments are validated before running", async () => {
    expect(readFileTool.validate({ path: "a", offset: 0 }).ok).toBe(false);
    const bad = readFileTool.validate({ path: 3 });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error).toContain("invalid arguments for read_file: path");
    const out = await readFileTool.run({ file: "a.txt" } as never, await contextFor(root));
    expect(out.isError).toBe(true);
    expect(readFileTool.parameters).toMatchObject({
      type: "object",
      required: ["path"],
      additionalProperties: false,
    });
  });

  test("reads of .git are not sensitive (only changes are)", async () => {
    const target = await readFileTool.policyTarget({ path: ".git/config" }, await contextFor(root));
    expect(target).toEqual({ targets: [".git/config"], sensitive: false });
  });
});

describe("write_file", () => {
  test("creates parent directories and shows a diff", async () => {
    const out = await writeFileTool.run(
      { path: "a/b/c.txt", content: "hello\nworld\n" },
      await contextFor(root),
    );
    expect(out.isError).toBe(false);
    expect(out.modelText).toBe("Created a/b/c.txt (2 lines)");
    expect(await text("a/b/c.txt")).toBe("hello\nworld\n");
    expect(out.display).toContain("--- /dev/null\n+++ b/a/b/c.txt");
    expect(out.display).toContain("+hello\n+world");
  });

  test("replacing a file shows what changed; preview does not write", async () => {
    await writeFile(join(root, "f.txt"), "one\ntwo\n");
    const ctx = await contextFor(root);
    const preview = await writeFileTool.preview({ path: "f.txt", content: "one\nthree\n" }, ctx);
    expect(preview).toContain("-two\n+three");
    expect(await text("f.txt")).toBe("one\ntwo\n");
    const out = await writeFileTool.run({ path: "f.txt", content: "one\nthree\n" }, ctx);
    expect(out.display).toContain("--- a/f.txt\n+++ b/f.txt");
    expect(out.display).toContain("-two\n+three");
    expect(await text("f.txt")).toBe("one\nthree\n");
  });

  test("policy target is workspace-relative; .git and .agent are sensitive", async () => {
    const ctx = await contextFor(root);
    expect(await writeFileTool.policyTarget({ path: join(root, "src/x.ts"), content: "" }, ctx)).toEqual({
      targets: ["src/x.ts"],
      sensitive: false,
    });
    expect(
      (await writeFileTool.policyTarget({ path: ".git/hooks/pre-commit", content: "" }, ctx)).sensitive,
    ).toBe(true);
    expect(
      (await writeFileTool.policyTarget({ path: ".agent/agents/a.yaml", content: "" }, ctx)).sensitive,
    ).toBe(true);
  });

  test("writing over a directory is an error", async () => {
    await mkdir(join(root, "d"));
    const out = await writeFileTool.run({ path: "d", content: "x" }, await contextFor(root));
    expect(out).toMatchObject({ isError: true, modelText: "Error: d is a directory" });
  });
});

describe("edit_file", () => {
  const src = "function a() {\n  return 1;\n}\n\nfunction b() {\n  return 1;\n}\n";

  test("replaces a unique exact match and shows a diff", async () => {
    await writeFile(join(root, "m.ts"), src);
    const out = await editFileTool.run(
      { path: "m.ts", old_string: "function a() {\n  return 1;", new_string: "function a() {\n  return 2;" },
      await contextFor(root),
    );
    expect(out.isError).toBe(false);
    expect(out.modelText).toBe("Edited m.ts: replaced 1 occurrence");
    expect(await text("m.ts")).toBe(src.replace("return 1;", "return 2;"));
    expect(out.display).toContain("--- a/m.ts\n+++ b/m.ts\n@@ -1,5 +1,5 @@");
    expect(out.display).toContain("-  return 1;\n+  return 2;");
  });

  test("a non-unique match is an error unless replace_all", async () => {
    await writeFile(join(root, "m.ts"), src);
    const ctx = await contextFor(root);
    const args = { path: "m.ts", old_string: "return 1;", new_string: "return 3;" };
    const out = await editFileTool.run(args, ctx);
    expect(out.isError).toBe(true);
    expect(out.modelText).toContain("occurs 2 times in m.ts");
    expect(await text("m.ts")).toBe(src);
    const all = await editFileTool.run({ ...args, replace_all: true }, ctx);
    expect(all.modelText).toBe("Edited m.ts: replaced 2 occurrences");
    expect(await text("m.ts")).toBe(src.replaceAll("return 1;", "return 3;"));
  });

  test("no match is an error naming the file; nothing changes", async () => {
    await writeFile(join(root, "m.ts"), src);
    const out = await editFileTool.run(
      { path: "m.ts", old_string: "return 9;", new_string: "x" },
      await contextFor(root),
    );
    expect(out.isError).toBe(true);
    expect(out.modelText).toContain("old_string not found in m.ts");
    expect(await text("m.ts")).toBe(src);
  });

  test("$ patterns in new_string are inserted literally", async () => {
    await writeFile(join(root, "d.txt"), "price: X\n");
    await editFileTool.run(
      { path: "d.txt", old_string: "X", new_string: "$& $1 $$" },
      await contextFor(root),
    );
    expect(await text("d.txt")).toBe("price: $& $1 $$\n");
  });

  test("matches LF text in a CRLF file and keeps CRLF", async () => {
    await writeFile(join(root, "w.txt"), "a\r\nb\r\nc\r\n");
    const out = await editFileTool.run(
      { path: "w.txt", old_string: "a\nb", new_string: "a\nB" },
      await contextFor(root),
    );
    expect(out.isError).toBe(false);
    expect(await text("w.txt")).toBe("a\r\nB\r\nc\r\n");
  });

  test("preview is the diff the edit would make, without writing", async () => {
    await writeFile(join(root, "m.ts"), src);
    const diff = await editFileTool.preview(
      { path: "m.ts", old_string: "function b", new_string: "function c" },
      await contextFor(root),
    );
    expect(diff).toContain("-function b() {\n+function c() {");
    expect(await text("m.ts")).toBe(src);
  });

  test("missing file and identical strings are errors", async () => {
    const ctx = await contextFor(root);
    expect(
      (await editFileTool.run({ path: "none.ts", old_string: "a", new_string: "b" }, ctx)).modelText,
    ).toContain("file not found: none.ts");
    await writeFile(join(root, "s.txt"), "same\n");
    expect(
      (await editFileTool.run({ path: "s.txt", old_string: "same", new_string: "same" }, ctx)).isError,
    ).toBe(true);
  });
});
