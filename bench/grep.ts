/**
 * grep benchmark (run: `bun bench/grep.ts [files]`, default 200,000): builds a tree of that many small
 * files in a temp directory (200 folders, a few hundred bytes each, one file in 1,000 holding the
 * needle), then times a literal search with our grep (its worker, through runSearch, under the default
 * 30 s limit) and with GNU `grep -r` on the same tree, and prints the ratio. Checks (exit 1 otherwise):
 *  - our search finishes within its time limit and finds every needle;
 *  - it takes at most 5x GNU grep's time on the same tree (a ratio, so a busy shared machine slows both
 *    sides alike; issue 22: a literal search over 50,000 files hit the 30 s limit, GNU grep took 1.6 s
 *    for 200,000).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GREP_TIME_LIMIT_MS, runSearch } from "../src/tools/search/grep-runner.ts";

const FILES = Number(process.argv[2] ?? 200_000);
const PER_FOLDER = 1000;
const NEEDLE = "needle_7f3a";

const root = realpathSync(mkdtempSync(join(tmpdir(), "agent-bench-grep-")));
try {
  const filler = "const value = 42; // some ordinary line of code\n".repeat(6);
  let needles = 0;
  for (let i = 0; i < FILES; i++) {
    const folder = join(root, `d${Math.floor(i / PER_FOLDER)}`);
    if (i % PER_FOLDER === 0) mkdirSync(folder);
    const hit = i % 1000 === 500;
    if (hit) needles++;
    writeFileSync(join(folder, `f${i}.ts`), hit ? `${filler}export const ${NEEDLE} = 1;\n` : filler);
  }
  console.log(`tree: ${FILES} files in ${Math.ceil(FILES / PER_FOLDER)} folders, ${needles} needles`);

  const started = performance.now();
  const outcome = await runSearch(
    { pattern: NEEDLE, base: root, isDirectory: true, skip: [".git", "node_modules"] },
    { signal: new AbortController().signal, timeoutMs: GREP_TIME_LIMIT_MS },
  );
  const ours = (performance.now() - started) / 1000;

  const gnuStarted = performance.now();
  const gnu = spawnSync("grep", ["-r", "-n", NEEDLE, root], { maxBuffer: 64 * 1024 * 1024 });
  const theirs = (performance.now() - gnuStarted) / 1000;
  const gnuHits = gnu.stdout.toString().split("\n").filter(Boolean).length;

  const found = outcome.kind === "done" ? outcome.reply.hits.length : 0;
  console.log(`agent grep: ${ours.toFixed(2)} s (${outcome.kind}, ${found} matches)`);
  console.log(`GNU grep -r: ${theirs.toFixed(2)} s (${gnuHits} matches)`);
  console.log(`ratio agent/GNU: ${(ours / theirs).toFixed(1)}x`);
  const failures: string[] = [];
  if (outcome.kind !== "done") failures.push(`the search did not finish (${outcome.kind})`);
  // The match list is capped (GREP_MAX_MATCHES); below the cap every needle must be found.
  else if (found < Math.min(needles, 200)) failures.push(`found ${found} of ${needles} needles`);
  if (ours > theirs * 5) failures.push(`took ${(ours / theirs).toFixed(1)}x GNU grep's time, over 5x`);
  for (const failure of failures) console.log(`FAIL: ${failure}`);
  process.exitCode = failures.length > 0 ? 1 : 0;
} finally {
  rmSync(root, { recursive: true, force: true });
}
