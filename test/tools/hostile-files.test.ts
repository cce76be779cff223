/**
 * A hostile workspace cannot hang the file tools: a FIFO (reading one blocks until a writer comes; writing
 * one blocks until a reader comes), a file past grep's size limit (answered "No matches" before), and a
 * file of lines built for a catastrophically backtracking pattern such as `(a+)+$`. Each call must end, and say
 * what it skipped or why it stopped.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { applyPatchTool } from "../../src/tools/files/apply-patch.ts";
import { readFileTool } from "../../src/tools/files/read-file.ts";
import { writeFileTool } from "../../src/tools/files/write-file.ts";
import { globTool } from "../../src/tools/search/glob.ts";
import { grepTool } from "../../src/tools/search/grep.ts";
import { workerUrl } from "../../src/tools/search/grep-runner.ts";
import { GREP_MAX_FILE_BYTES } from "../../src/tools/search/grep-search.ts";
import { cleanup, contextFor, tempDir } from "./helpers.ts";

let root: string;

beforeAll(async () => {
  root = await tempDir("agent-hostile-");
  await mkdir(join(root, "fifo"));
  await mkdir(join(root, "big"));
  await mkdir(join(root, "redos"));
  const made = Bun.spawnSync(["mkfifo", join(root, "fifo/pipe.txt")]);
  if (made.exitCode !== 0) throw new Error(`mkfifo failed: ${made.stderr.toString()}`);
  await writeFile(join(root, "fifo/notes.txt"), "secret plan\n");
  await writeFile(join(root, "big/huge.log"), `${"x".repeat(GREP_MAX_FILE_BYTES)}\nsecret at the end\n`);
  // JavaScriptCore gives up on one such line after about a second (answering "no match"); a file of
  // thousands of them held the event loop for an hour.
  await writeFile(join(root, "redos/lines.txt"), `${"a".repeat(64)}b\n`.repeat(4_000));
});
afterAll(() => cleanup(root));

describe("FIFOs are never opened", () => {
  test("read_file refuses a FIFO with a clear error", async () => {
    const out = await readFileTool.run({ path: "fifo/pipe.txt" }, await contextFor(root));
    expect(out.isError).toBe(true);
    expect(out.modelText).toBe(
      "Error: fifo/pipe.txt is a FIFO, not a regular file; only regular files are read",
    );
  });

  test("grep on a FIFO named as its path refuses it", async () => {
    const out = await grepTool.run({ pattern: "secret", path: "fifo/pipe.txt" }, await contextFor(root));
    expect(out.isError).toBe(true);
    expect(out.modelText).toContain("fifo/pipe.txt is a FIFO");
  });

  test("grep over a folder with a FIFO searches the rest and names the FIFO as skipped", async () => {
    const out = await grepTool.run({ pattern: "secret", path: "fifo" }, await contextFor(root));
    expect(out.isError).toBe(false);
    expect(out.modelText).toContain("fifo/notes.txt:1: secret plan");
    expect(out.modelText).toContain("(1 file not searched: fifo/pipe.txt (a FIFO))");
  });

  test("glob lists regular files and names the FIFO as skipped", async () => {
    const out = await globTool.run({ pattern: "*.txt", path: "fifo" }, await contextFor(root));
    expect(out.modelText).toBe("fifo/notes.txt\n\n(skipped, not regular files: fifo/pipe.txt (a FIFO))");
  });

  test("apply_patch refuses to touch a FIFO (deleting one first reads it for the undo copy)", async () => {
    const patch = "*** Begin Patch\n*** Delete File: fifo/pipe.txt\n*** End Patch";
    const out = await applyPatchTool.run({ patch }, await contextFor(root));
    expect(out.isError).toBe(true);
    expect(out.modelText).toContain("fifo/pipe.txt is a FIFO, not a regular file");
  });

  test("write_file into a FIFO is refused instead of waiting for a reader", async () => {
    const out = await writeFileTool.run({ path: "fifo/pipe.txt", content: "x" }, await contextFor(root));
    expect(out.isError).toBe(true);
    expect(out.modelText).toContain("is a FIFO, not a regular file");
  });
});

describe("grep says what it did not search", () => {
  test("a file over the size limit is named, not answered with a bare 'No matches'", async () => {
    const out = await grepTool.run({ pattern: "secret", path: "big" }, await contextFor(root));
    expect(out.modelText).toStartWith("No matches for /secret/ in big");
    expect(out.modelText).toContain(
      `big/huge.log (too large: ${GREP_MAX_FILE_BYTES + 19} bytes, over the ${GREP_MAX_FILE_BYTES}-byte limit)`,
    );
  });
});

describe("a catastrophically backtracking pattern cannot hang the run", () => {
  test("the search is stopped at its time bound with an error saying what it had done", async () => {
    const out = await grepTool.run(
      { pattern: "(a+)+$", path: "redos" },
      await contextFor(root, { searchTimeoutMs: 500 }),
    );
    expect(out.isError).toBe(true);
    expect(out.modelText).toContain("the 0.5 s time limit was reached after searching about 0 of 1 file");
    expect(out.modelText).toContain("nests quantifiers such as (a+)+");
  }, 30_000);

  test("an abort ends a running search", async () => {
    const controller = new AbortController();
    const running = grepTool.run(
      { pattern: "(a+)+$", path: "redos" },
      await contextFor(root, { signal: controller.signal }),
    );
    // Abort while the worker is (most likely) deep in the search; the outcome is the same either way.
    setTimeout(() => controller.abort(), 300);
    const out = await running;
    expect(out).toMatchObject({ isError: true, modelText: "Error: aborted" });
  }, 30_000);
});

describe("the grep worker is always our own module", () => {
  test("from source it sits next to the runner; in a compiled binary under the embedded root, never in the workspace", () => {
    expect(workerUrl("file:///work/agent/src/tools/search/grep-runner.ts").href).toBe(
      "file:///work/agent/src/tools/search/grep-worker.ts",
    );
    expect(workerUrl("file:///$bunfs/root/chunk-1atg9ar0.js").href).toBe(
      "file:///$bunfs/root/tools/search/grep-worker.ts",
    );
  });
});
