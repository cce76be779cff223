import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readRegularFile } from "../../../src/kernel/files/regular-file.ts";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "regular-file-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("readRegularFile", () => {
  test("returns exactly the file's bytes, not the size of the limit", async () => {
    const path = join(dir, "a.txt");
    writeFileSync(path, "one\ntwo\n");
    const read = await readRegularFile(path, 20 * 1024 * 1024);
    expect(read.ok && read.bytes.toString("utf8")).toBe("one\ntwo\n");
    // The bytes are sized by the file, not by the 20 MiB limit.
    expect(read.ok && read.bytes.buffer.byteLength).toBeLessThan(64 * 1024);
  });

  test("an empty file reads as no bytes", async () => {
    const path = join(dir, "empty");
    writeFileSync(path, "");
    const read = await readRegularFile(path, 1024);
    expect(read.ok && read.bytes.length).toBe(0);
  });

  test("a file over the limit is too-large with its size", async () => {
    const path = join(dir, "big");
    writeFileSync(path, "x".repeat(100));
    expect(await readRegularFile(path, 99)).toEqual({ ok: false, why: "too-large", size: 100 });
    const exact = await readRegularFile(path, 100);
    expect(exact.ok && exact.bytes.length).toBe(100);
  });

  // /proc files say size 0 in stat and fstat but hold text: the read grows past what fstat said,
  // as it must for a file that grows after the check, and stays bounded by the limit.
  test("a file longer than its fstat size is read whole, within the limit", async () => {
    const read = await readRegularFile("/proc/self/status", 1024 * 1024);
    expect(read.ok && read.bytes.toString("utf8")).toContain("VmHWM:");
    const bounded = await readRegularFile("/proc/self/status", 64);
    expect(bounded.ok).toBe(false);
    expect(!bounded.ok && bounded.why).toBe("too-large");
    expect(!bounded.ok && bounded.why === "too-large" && bounded.size).toBe(65);
  });
});
