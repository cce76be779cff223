/**
 * Startup benchmark: whole-process wall time and peak memory of
 *   1. `bun -e 0`                              (the floor: Bun itself)
 *   2. `bin/agent helper "say hi"` from source
 *   3. the compiled binary `dist/agent helper "say hi"`
 *   4. the compiled binary `dist/agent --version`
 * against the fake LLM server with zero latency (one scripted turn per run). Median of N runs after
 * warm-up; peak memory is the child's max RSS (Bun's Subprocess.resourceUsage()).
 *
 * The binary is built with the package's build command (`bun run build`) when it is missing or older than any file
 * under src/ (or always with --rebuild).
 *
 *   bun bench/startup.ts [--runs 20] [--warmup 3] [--rebuild] [--baseline OTHER_BINARY]...
 *
 * Runs go in rounds (each target once per round), so load from other processes falls on every target
 * alike. `--baseline` adds another build's compiled helper and --version to the same rounds (e.g. main's
 * binary before a change); it can be given more than once. CPU ms is the child's user + system time, which other load moves least.
 *
 * Targets (issue 16): the compiled helper within 3x the floor (median over median, same run) and under
 * 80 MiB. No absolute time: the floor itself is 10 ms on one machine and 27 ms on another. Exits 1 when
 * the compiled helper misses one.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startFakeLlmServer } from "../test/support/fake-llm-server.ts";
import { options, positiveNumber } from "./args.ts";

const ROOT = resolve(import.meta.dir, "..");
const BINARY = join(ROOT, "dist", "agent");
const TARGET_MIB = 80;
/** The compiled one-shot's median over the `bun -e 0` median, measured in the same run (issue 16). */
const TARGET_FLOOR_RATIO = 3;

const RUNS = positiveNumber("--runs", 20);
/** Every `--baseline BINARY` (repeatable: main and an older release in one run). */
const BASELINES = options("--baseline");
const WARMUP = positiveNumber("--warmup", 3);

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

async function ensureBinary(): Promise<void> {
  const stale = !existsSync(BINARY) || statSync(BINARY).mtimeMs < newestMtime(join(ROOT, "src"));
  if (!stale && !process.argv.includes("--rebuild")) return;
  process.stderr.write("building dist/agent (bun run build) ...\n");
  // The package's own build command, so the figures are those of the binary users get.
  const build = Bun.spawn([process.execPath, "run", "build"], {
    cwd: ROOT,
    stdout: "ignore",
    stderr: "inherit",
  });
  if ((await build.exited) !== 0) throw new Error("bun build failed");
}

interface Sample {
  ms: number;
  rssBytes: number;
  /** User + system CPU time of the child. */
  cpuMs: number;
}

interface Target {
  name: string;
  cmd: string[];
  /** Whether a run makes one model call (a scripted turn is queued first). */
  callsModel: boolean;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

async function main(): Promise<void> {
  await ensureBinary();
  const server = await startFakeLlmServer();
  const sandbox = mkdtempSync(join(tmpdir(), "agent-bench-"));
  for (const d of ["home", "config", "state"]) mkdirSync(join(sandbox, d));
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: join(sandbox, "home"),
    XDG_CONFIG_HOME: join(sandbox, "config"),
    XDG_STATE_HOME: join(sandbox, "state"),
    ANTHROPIC_API_KEY: "sk-ant-bench-0000000000",
    ANTHROPIC_BASE_URL: server.anthropicBaseUrl,
  };
  const targets: Target[] = [
    { name: "bun -e 0 (floor)", cmd: [process.execPath, "-e", "0"], callsModel: false },
    { name: "helper from source", cmd: [join(ROOT, "bin", "agent"), "helper", "say hi"], callsModel: true },
    { name: "helper compiled", cmd: [BINARY, "helper", "say hi"], callsModel: true },
    { name: "--version compiled", cmd: [BINARY, "--version"], callsModel: false },
  ];
  for (const [n, baseline] of BASELINES.entries()) {
    const other = resolve(baseline);
    if (!existsSync(other)) throw new Error(`--baseline ${baseline}: no such binary`);
    const label = BASELINES.length === 1 ? "baseline" : `baseline ${n + 1}`;
    targets.push(
      { name: `helper compiled (${label})`, cmd: [other, "helper", "say hi"], callsModel: true },
      { name: `--version compiled (${label})`, cmd: [other, "--version"], callsModel: false },
    );
  }

  const results: { target: Target; ms: number; mib: number; minMs: number; cpuMs: number }[] = [];
  const samples = new Map<Target, Sample[]>(targets.map((t) => [t, []]));
  try {
    for (let i = 0; i < WARMUP + RUNS; i++) {
      for (const target of targets) {
        if (target.callsModel) server.enqueue({ text: "hi" });
        const start = performance.now();
        const proc = Bun.spawn(target.cmd, {
          env,
          cwd: sandbox,
          stdin: "ignore",
          stdout: "pipe",
          stderr: "pipe",
        });
        const [stdout, stderr, code] = await Promise.all([
          new Response(proc.stdout).text(),
          new Response(proc.stderr).text(),
          proc.exited,
        ]);
        const ms = performance.now() - start;
        if (code !== 0 || (target.callsModel && stdout !== "hi\n")) {
          throw new Error(`${target.name} failed (exit ${code}): ${stderr.trim() || stdout.trim()}`);
        }
        const usage = proc.resourceUsage();
        const cpuMs = usage ? Number(usage.cpuTime.user + usage.cpuTime.system) / 1000 : 0;
        if (i >= WARMUP) samples.get(target)?.push({ ms, rssBytes: usage?.maxRSS ?? 0, cpuMs });
      }
    }
    for (const target of targets) {
      const taken = samples.get(target) ?? [];
      results.push({
        target,
        ms: median(taken.map((s) => s.ms)),
        minMs: Math.min(...taken.map((s) => s.ms)),
        mib: Math.max(...taken.map((s) => s.rssBytes)) / 1024 / 1024,
        cpuMs: median(taken.map((s) => s.cpuMs)),
      });
    }
  } finally {
    await server.close();
    rmSync(sandbox, { recursive: true, force: true });
  }

  const floor = results[0]!;
  const rows = [
    ["target", "median ms", "min ms", "× floor", "CPU ms", "× floor", "peak MiB", "× floor"],
    ...results.map((r) => [
      r.target.name,
      r.ms.toFixed(1),
      r.minMs.toFixed(1),
      (r.ms / floor.ms).toFixed(1),
      r.cpuMs.toFixed(1),
      (r.cpuMs / floor.cpuMs).toFixed(1),
      r.mib.toFixed(1),
      (r.mib / floor.mib).toFixed(1),
    ]),
  ];
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((row) => row[col]!.length)));
  const line = (row: string[]) =>
    row.map((cell, col) => (col === 0 ? cell.padEnd(widths[col]!) : cell.padStart(widths[col]!))).join("  ");
  console.log(
    `startup: ${RUNS} rounds after ${WARMUP} warm-up, fake server with zero latency, Bun ${Bun.version}`,
  );
  console.log(line(rows[0]!));
  for (const row of rows.slice(1)) console.log(line(row));

  const compiled = results[2]!;
  const floorRatio = compiled.ms / floor.ms;
  const ok = compiled.mib < TARGET_MIB && floorRatio <= TARGET_FLOOR_RATIO;
  console.log(
    `target: compiled helper within ${TARGET_FLOOR_RATIO}x the floor and < ${TARGET_MIB} MiB: ${ok ? "met" : "MISSED"} (${compiled.ms.toFixed(1)} ms, ${floorRatio.toFixed(2)}x, ${compiled.mib.toFixed(1)} MiB)`,
  );
  if (!ok) process.exitCode = 1;
}

await main();
