/**
 * Issue 22, from the fault's side: files whose names are not valid UTF-8 were skipped silently by grep
 * and glob; they are searched and listed, shown escaped. A time-out says how far the search got instead
 * of blaming the pattern.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { globTool } from "../../../src/tools/search/glob.ts";
import { grepTool, timeoutNote } from "../../../src/tools/search/grep.ts";
import { cleanup, contextFor, tempDir } from "../helpers.ts";

let root: string;
beforeAll(async () => {
  root = await tempDir();
  const dir = Buffer.from(join(root, "names"));
  mkdirSync(dir);
  // `café.txt` in Latin-1, and a folder `d\xff` holding a file: names no UTF-8 decoder accepts.
  writeFileSync(
    Buffer.concat([dir, Buffer.from("/caf"), Buffer.from([0xe9]), Buffer.from(".txt")]),
    "a needle\n",
  );
  const sub = Buffer.concat([dir, Buffer.from("/d"), Buffer.from([0xff])]);
  mkdirSync(sub);
  writeFileSync(Buffer.concat([sub, Buffer.from("/inner.txt")]), "one more needle\n");
  writeFileSync(join(root, "names", "plain.txt"), "needle too\n");
});
afterAll(() => cleanup(root));

describe("names that are not valid UTF-8", () => {
  test("grep searches them and lists them escaped", async () => {
    const out = await grepTool.run({ pattern: "needle", path: "names" }, await contextFor(root));
    expect(out.isError).toBe(false);
    expect(out.modelText.split("\n").sort()).toEqual([
      "names/caf\\xe9.txt:1: a needle",
      "names/d\\xff/inner.txt:1: one more needle",
      "names/plain.txt:1: needle too",
    ]);
  });

  test("glob lists them escaped", async () => {
    const out = await globTool.run({ pattern: "**/*.txt", path: "names" }, await contextFor(root));
    expect(out.modelText.split("\n").sort()).toEqual([
      "names/caf\\xe9.txt",
      "names/d\\xff/inner.txt",
      "names/plain.txt",
    ]);
  });
});

describe("the time-out note", () => {
  test("says how far the search got, not that the pattern backtracks", () => {
    const note = timeoutNote(30, { listed: 50_000, searched: 12_000, total: 50_000, matches: 3 });
    expect(note).toBe(
      "the 30 s time limit was reached after searching about 12000 of 50000 files (3 matches so far); " +
        "narrow path or glob (and simplify the pattern if it nests quantifiers such as (a+)+)",
    );
    expect(timeoutNote(30, { listed: 9000, searched: 0, matches: 0 })).toBe(
      "the 30 s time limit was reached while listing files (9000 found so far); narrow path or glob",
    );
  });
});
