/**
 * Writes that fail part-way leave the original whole: write_file, edit_file and apply_patch on a file
 * system that fills up (a 64 KiB tmpfs, mounted for the test: CI runs as root) report exactly that and
 * change nothing; a rewrite keeps the file's mode; no temporary file is left behind.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { applyPatchTool } from "../../../src/tools/files/apply-patch.ts";
import { editFileTool } from "../../../src/tools/files/edit-file.ts";
import { writeFileTool } from "../../../src/tools/files/write-file.ts";
import { cleanup, contextFor, tempDir } from "../helpers.ts";

const dirs: string[] = [];
let small = "";
beforeAll(async () => {
  small = await tempDir("agent-enospc-");
  dirs.push(small);
  const mount = spawnSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", small], { encoding: "utf8" });
  // Mounting needs root (CI is root); anywhere else this says why instead of passing without the fault.
  if (mount.status !== 0)
    throw new Error(`cannot mount a small tmpfs for the full-disk tests: ${mount.stderr}`);
});
afterAll(async () => {
  if (small !== "") spawnSync("umount", [small]);
  await cleanup(...dirs);
});

/** 400 numbered lines (about 24 KiB), and the same grown past what the 64 KiB file system can hold. */
const ORIGINAL = Array.from({ length: 400 }, (_, i) => `line ${i} ${"x".repeat(50)}`).join("\n");
const TOO_BIG = ORIGINAL.repeat(4);

/** A fresh folder on the small file system holding `big.txt` with ORIGINAL. */
function fullDiskWorkspace(name: string): string {
  const root = join(small, name);
  mkdirSync(root);
  writeFileSync(join(root, "big.txt"), ORIGINAL);
  return root;
}

describe("on a full disk", () => {
  test("write_file says the file was not written and is unchanged, and it is", async () => {
    const root = fullDiskWorkspace("write");
    const out = await writeFileTool.run({ path: "big.txt", content: TOO_BIG }, await contextFor(root));
    expect(out.isError).toBe(true);
    expect(out.modelText).toContain("not written: no space left on device; big.txt is unchanged");
    expect(readFileSync(join(root, "big.txt"), "utf8")).toBe(ORIGINAL);
    expect(readdirSync(root)).toEqual(["big.txt"]);
    rmSync(root, { recursive: true });
  });

  test("edit_file says the same and leaves every line in place", async () => {
    const root = fullDiskWorkspace("edit");
    const out = await editFileTool.run(
      { path: "big.txt", old_string: "line 0 ", new_string: `${TOO_BIG}\nline 0 ` },
      await contextFor(root),
    );
    expect(out.isError).toBe(true);
    expect(out.modelText).toContain("not written: no space left on device; big.txt is unchanged");
    expect(readFileSync(join(root, "big.txt"), "utf8")).toBe(ORIGINAL);
    expect(readdirSync(root)).toEqual(["big.txt"]);
    rmSync(root, { recursive: true });
  });

  test("a new file that does not fit is not created at all", async () => {
    const root = fullDiskWorkspace("create");
    const out = await writeFileTool.run({ path: "sub/new.txt", content: TOO_BIG }, await contextFor(root));
    expect(out.modelText).toContain("not written: no space left on device; sub/new.txt was not created");
    expect(readdirSync(join(root, "sub"))).toEqual([]);
    rmSync(root, { recursive: true });
  });

  test("apply_patch restores the files it already wrote when a later one does not fit", async () => {
    const root = fullDiskWorkspace("patch");
    writeFileSync(join(root, "a.txt"), "old a\n");
    const patch = `*** Begin Patch\n*** Update File: a.txt\n@@\n-old a\n+new a\n*** Add File: huge.txt\n${TOO_BIG.split(
      "\n",
    )
      .map((l) => `+${l}`)
      .join("\n")}\n*** End Patch`;
    const out = await applyPatchTool.run({ patch }, await contextFor(root));
    expect(out.isError).toBe(true);
    expect(out.modelText).toContain("no space left on device");
    expect(readFileSync(join(root, "a.txt"), "utf8")).toBe("old a\n");
    expect(readdirSync(root).sort()).toEqual(["a.txt", "big.txt"]);
    rmSync(root, { recursive: true });
  });
});

describe("a rewrite keeps what the file was", () => {
  test("write_file and edit_file keep an executable's mode", async () => {
    const root = await tempDir("agent-mode-");
    dirs.push(root);
    writeFileSync(join(root, "run.sh"), "#!/bin/sh\necho one\n");
    chmodSync(join(root, "run.sh"), 0o750);
    const ctx = await contextFor(root);
    await editFileTool.run({ path: "run.sh", old_string: "one", new_string: "two" }, ctx);
    expect(statSync(join(root, "run.sh")).mode & 0o7777).toBe(0o750);
    await writeFileTool.run({ path: "run.sh", content: "#!/bin/sh\necho three\n" }, ctx);
    expect(statSync(join(root, "run.sh")).mode & 0o7777).toBe(0o750);
    expect(readFileSync(join(root, "run.sh"), "utf8")).toBe("#!/bin/sh\necho three\n");
    expect(readdirSync(root)).toEqual(["run.sh"]);
  });
});
