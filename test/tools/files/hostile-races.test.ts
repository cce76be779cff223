/**
 * File tools against a workspace that changes under them (a command the user allowed, running alongside):
 * a loop swaps `src/gen` between the real folder and a symlink to a folder outside while two writers put
 * 150 files under `src/gen/`. Every write opens what it checked (pinned-dir.ts), so none may land outside;
 * a write caught mid-swap fails with a message instead. The same holds for reads.
 */
import { afterAll, expect, test } from "bun:test";
import { type ChildProcess, spawn } from "node:child_process";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { readFileTool } from "../../../src/tools/files/read-file.ts";
import { writeFileTool } from "../../../src/tools/files/write-file.ts";
import { cleanup, contextFor, tempDir } from "../helpers.ts";

const dirs: string[] = [];
const loops: ChildProcess[] = [];
afterAll(async () => {
  for (const loop of loops) loop.kill("SIGKILL");
  await cleanup(...dirs);
});

/**
 * Starts the swapping loop (perl, a process of its own so it truly runs in parallel, switching every
 * ~0.1 ms: about the time a write takes between its check and its open); resolves once it swaps.
 */
async function startSwapping(root: string, outside: string): Promise<ChildProcess> {
  const script = `
    $| = 1; chdir $ARGV[0] or die; my $n = 0;
    while (1) {
      rename "src/gen", "src/real"; symlink $ARGV[1], "src/gen";
      select(undef, undef, undef, 0.0001);
      unlink "src/gen"; rename "src/real", "src/gen";
      select(undef, undef, undef, 0.0001);
      print "swapping\n" if ++$n == 20;
    }`;
  const loop = spawn("perl", ["-e", script, root, outside], { stdio: ["ignore", "pipe", "ignore"] });
  loops.push(loop);
  await new Promise<void>((resolve) => loop.stdout?.once("data", () => resolve()));
  return loop;
}

/** Every file below `dir`, as paths relative to it (symlinks not followed). */
function filesBelow(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1));
}

/** Stops the loop and leaves `src/gen` a real folder again, wherever the loop was stopped. */
async function stop(loop: ChildProcess, root: string): Promise<void> {
  const exited = new Promise((resolve) => loop.once("exit", resolve));
  loop.kill("SIGKILL");
  await exited;
  const gen = join(root, "src", "gen");
  const real = join(root, "src", "real");
  if (lstatSync(gen, { throwIfNoEntry: false })?.isSymbolicLink()) unlinkSync(gen);
  if (!existsSync(gen)) {
    if (existsSync(real)) renameSync(real, gen);
    else mkdirSync(gen);
  }
}

test("two writers under a swapping src/gen land 0 of 150 files outside the workspace", async () => {
  const root = await tempDir("agent-race-ws-");
  const outside = await tempDir("agent-race-outside-");
  dirs.push(root, outside);
  mkdirSync(join(root, "src", "gen"), { recursive: true });
  const ctx = await contextFor(root);
  const loop = await startSwapping(root, outside);
  const writer = async (first: number) => {
    const results = [];
    for (let i = first; i < first + 75; i++)
      results.push(await writeFileTool.run({ path: `src/gen/f${i}.txt`, content: `file ${i}\n` }, ctx));
    return results;
  };
  const results = (await Promise.all([writer(0), writer(75)])).flat();
  await stop(loop, root);

  expect(filesBelow(outside)).toEqual([]);
  // A write caught mid-swap is refused, saying why (the path cannot be resolved, leads outside, or changed).
  const failed = results.filter((r) => r.isError);
  for (const result of failed)
    expect(result.modelText).toMatch(
      /changed while in use|outside the workspace|cannot resolve path|not written/,
    );
  // Every write that reported success is inside the workspace, with its content.
  const inside = filesBelow(root).filter((rel) => /f\d+\.txt$/.test(rel));
  expect(inside.length).toBe(results.length - failed.length);
  // Under heavy load every racing write may be refused; once the swapping stops, writes work again.
  const after = await writeFileTool.run({ path: "src/gen/after.txt", content: "after\n" }, ctx);
  expect(after.isError).toBe(false);
  expect(readFileSync(join(root, "src", "gen", "after.txt"), "utf8")).toBe("after\n");
  for (const rel of inside) expect(readFileSync(join(root, rel), "utf8")).toMatch(/^file \d+\n$/);
});

test("reads under a swapping src/gen never return a file from outside", async () => {
  const root = await tempDir("agent-race-read-ws-");
  const outside = await tempDir("agent-race-read-outside-");
  dirs.push(root, outside);
  mkdirSync(join(root, "src", "gen"), { recursive: true });
  writeFileSync(join(root, "src", "gen", "secret.txt"), "inside\n");
  writeFileSync(join(outside, "secret.txt"), "OUTSIDE SECRET\n");
  const ctx = await contextFor(root);
  const loop = await startSwapping(root, outside);
  const reads = [];
  for (let i = 0; i < 150; i++) reads.push(await readFileTool.run({ path: "src/gen/secret.txt" }, ctx));
  await stop(loop, root);
  for (const read of reads) expect(read.modelText).not.toContain("OUTSIDE SECRET");
  // Under heavy load every racing read may be refused; once the swapping stops, reads work again.
  writeFileSync(join(root, "src", "gen", "secret.txt"), "inside\n");
  expect((await readFileTool.run({ path: "src/gen/secret.txt" }, ctx)).modelText).toContain("inside");
});
