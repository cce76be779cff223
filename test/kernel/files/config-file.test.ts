/**
 * The one guarded reader for files the CLI reads on its own (src/kernel/files/config-file.ts): regular files
 * up to the cap are read; everything that could block, flood or leave the workspace is refused.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readConfigFile, readConfigFileResult } from "../../../src/kernel/files/config-file.ts";
import { AppError } from "../../../src/kernel/index.ts";

let dir: string;
let ws: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "agent-config-file-"));
  ws = join(dir, "ws");
  mkdirSync(ws);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("readConfigFileResult", () => {
  test("a regular file up to the cap is read whole; one byte more is refused", async () => {
    const file = join(ws, "a.yaml");
    writeFileSync(file, "x".repeat(64));
    expect(await readConfigFileResult(file, { cap: 64 })).toEqual({ text: "x".repeat(64) });
    writeFileSync(file, "x".repeat(65));
    const read = await readConfigFileResult(file, { cap: 64 });
    expect("refused" in read && read.refused).toContain("64 byte limit");
  });

  test("a missing file is missing, not an error", async () => {
    expect(await readConfigFileResult(join(ws, "none.yaml"), {})).toEqual({ missing: true });
    expect(await readConfigFile(join(ws, "none.yaml"), { kind: "config" })).toBeUndefined();
  });

  test("a symlink inside the workspace is followed; one leading out of it is refused", async () => {
    writeFileSync(join(ws, "real.yaml"), "inside");
    symlinkSync(join(ws, "real.yaml"), join(ws, "link.yaml"));
    expect(await readConfigFileResult(join(ws, "link.yaml"), { within: ws })).toEqual({ text: "inside" });
    writeFileSync(join(dir, "outside.yaml"), "outside");
    symlinkSync(join(dir, "outside.yaml"), join(ws, "out.yaml"));
    const read = await readConfigFileResult(join(ws, "out.yaml"), { within: ws });
    expect("refused" in read && read.refused).toContain("out of the workspace");
    // Without a workspace bound (the user's own config) the same link is fine.
    expect(await readConfigFileResult(join(ws, "out.yaml"), {})).toEqual({ text: "outside" });
  });

  test("devices, directories and broken links are refused", async () => {
    symlinkSync("/dev/zero", join(ws, "zero.yaml"));
    const zero = await readConfigFileResult(join(ws, "zero.yaml"), {});
    expect("refused" in zero && zero.refused).toContain("a character device");
    mkdirSync(join(ws, "dir.yaml"));
    const directory = await readConfigFileResult(join(ws, "dir.yaml"), {});
    expect("refused" in directory && directory.refused).toContain("a directory");
    symlinkSync(join(ws, "gone"), join(ws, "broken.yaml"));
    expect("refused" in (await readConfigFileResult(join(ws, "broken.yaml"), {}))).toBe(true);
  });

  test("a FIFO is refused without blocking (no writer ever opens it)", async () => {
    const fifo = join(ws, "fifo.yaml");
    expect(Bun.spawnSync(["mkfifo", fifo]).exitCode).toBe(0);
    const read = await readConfigFileResult(fifo, {});
    expect("refused" in read && read.refused).toContain("a FIFO");
  });

  test("readConfigFile turns a refusal into an AppError of the given kind naming the file", async () => {
    symlinkSync("/dev/zero", join(ws, "zero.yaml"));
    const error = await readConfigFile(join(ws, "zero.yaml"), { kind: "spec" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).kind).toBe("spec");
    expect((error as AppError).message).toStartWith(join(ws, "zero.yaml"));
  });
});
