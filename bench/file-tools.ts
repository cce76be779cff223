/**
 * File-tool benchmark (run: `bun bench/file-tools.ts`): the cost of one read_file, write_file and edit_file
 * call on a small file three folders deep in a temp workspace, median of many, run the way the pipeline
 * runs a primitive (validate, run, redact, truncate). The path checks (resolve, then the pinned-folder walk
 * of pinned-dir.ts) and the atomic write (temp file, fsync, rename) are on this path.
 */
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Redactor } from "../src/kernel/text/redact.ts";
import { editFileTool } from "../src/tools/files/edit-file.ts";
import { readFileTool } from "../src/tools/files/read-file.ts";
import { writeFileTool } from "../src/tools/files/write-file.ts";
import type { ToolContext } from "../src/tools/types.ts";
import { Workspace } from "../src/tools/workspace.ts";

const RUNS = 300;

async function median(run: (i: number) => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 20; i++) await run(i); // warm-up
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await run(i);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] ?? 0;
}

const root = await realpath(await mkdtemp(path.join(tmpdir(), "agent-bench-files-")));
try {
  await mkdir(path.join(root, "src", "deep", "er"), { recursive: true });
  const file = "src/deep/er/mod.ts";
  const text = Array.from({ length: 200 }, (_, i) => `export const v${i} = ${i};`).join("\n");
  await writeFile(path.join(root, file), text);
  const ctx: ToolContext = {
    workspace: await Workspace.open(root),
    signal: new AbortController().signal,
    redactor: new Redactor([]),
  };
  const read = await median(() => readFileTool.run({ path: file }, ctx));
  const write = await median((i) => writeFileTool.run({ path: file, content: `${text}\n// ${i}` }, ctx));
  // Toggles one line back and forth (warm-up and measured runs both start from `v0 = 0;`).
  const edit = await median((i) =>
    editFileTool.run(
      { path: file, old_string: i % 2 ? "v0 = 1;" : "v0 = 0;", new_string: i % 2 ? "v0 = 0;" : "v0 = 1;" },
      ctx,
    ),
  );
  console.log(`file tools, median of ${RUNS} calls (200-line file, 3 folders deep, ${tmpdir()})`);
  console.log("tool       | ms/call");
  console.log(`read_file  | ${read.toFixed(3)}`);
  console.log(`write_file | ${write.toFixed(3)}`);
  console.log(`edit_file  | ${edit.toFixed(3)}`);
} finally {
  await rm(root, { recursive: true, force: true });
}
