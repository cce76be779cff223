/**
 * Skills benchmark: what discovering skills costs a run.
 *   1. in process: `loadSessionSkills` (search folders, read and validate every SKILL.md) on a workspace
 *      with 200 skills, and on one with no skill folder;
 *   2. whole process: `bin/agent run "hi"` (from source, against the fake LLM server with zero latency)
 *      in the 200-skill workspace, in an empty one, and (when present) main's checkout in the empty one.
 * Median of N runs after warm-up; whole-process targets run in rounds so load falls on each alike.
 *
 *   bun bench/skills.ts [--runs 15] [--warmup 2] [--baseline /path/to/other/bin/agent] [--no-process]
 *
 * Targets: discovery of 200 skills under 20 ms in process, and the 200-skill run within 20 ms of the
 * empty one, both as median CPU time (the process's user + system; the wall time on a shared, loaded
 * machine moves with others' load, so it is shown but not judged). Exits 1 when one is missed. Without a skill folder the discovery
 * modules are never imported (src/sdk/session-skills.ts), so start-up stays as it was: compare the empty
 * workspace's run with --baseline (main's bin/agent).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { loadSessionSkills } from "../src/sdk/session-skills.ts";
import { startFakeLlmServer } from "../test/support/fake-llm-server.ts";
import { option, positiveNumber } from "./args.ts";

const ROOT = resolve(import.meta.dir, "..");
const AGENT = join(ROOT, "bin", "agent");
const SKILLS = 200;
const TARGET_MS = 20;

const RUNS = positiveNumber("--runs", 15);
const WARMUP = positiveNumber("--warmup", 2);
const BASELINE = option("--baseline");

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

const dir = mkdtempSync(join(tmpdir(), "agent-bench-skills-"));
const home = join(dir, "home");
const config = join(dir, "config");
const state = join(dir, "state");
const empty = join(dir, "empty");
const full = join(dir, "full");
for (const d of [home, config, state, empty, full]) mkdirSync(d, { recursive: true });
// A realistic skill: frontmatter plus a body of a few kilobytes.
const body = `${"Follow these steps carefully and report what you did.\n".repeat(60)}`;
for (let i = 0; i < SKILLS; i++) {
  const name = `skill-${String(i).padStart(3, "0")}`;
  mkdirSync(join(full, ".agents", "skills", name), { recursive: true });
  writeFileSync(
    join(full, ".agents", "skills", name, "SKILL.md"),
    `---\nname: ${name}\ndescription: Does task number ${i} of the benchmark. Use when the user asks for task ${i}.\nlicense: MIT\n---\n${body}`,
  );
}
const env = {
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  HOME: home,
  XDG_CONFIG_HOME: config,
  XDG_STATE_HOME: state,
};

/** Wall and CPU milliseconds of one discovery (CPU: the process's user + system, file-system threads included). */
async function inProcess(workspace: string): Promise<{ ms: number; cpuMs: number }> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const skills = await loadSessionSkills(workspace, env, false);
  const ms = performance.now() - start;
  const used = process.cpuUsage(cpu);
  if (workspace === full && skills?.set.skills.size !== SKILLS) throw new Error("not every skill loaded");
  return { ms, cpuMs: (used.user + used.system) / 1000 };
}

const results: string[][] = [["target", "median ms", "min ms", "CPU ms"]];
let failed = false;
const times = { full: [] as { ms: number; cpuMs: number }[], empty: [] as { ms: number; cpuMs: number }[] };
for (let i = 0; i < WARMUP + RUNS * 2; i++) {
  const f = await inProcess(full);
  const e = await inProcess(empty);
  if (i >= WARMUP) {
    times.full.push(f);
    times.empty.push(e);
  }
}
const row = (name: string, list: { ms: number; cpuMs: number }[]) => [
  name,
  median(list.map((t) => t.ms)).toFixed(2),
  Math.min(...list.map((t) => t.ms)).toFixed(2),
  median(list.map((t) => t.cpuMs)).toFixed(2),
];
results.push(row(`discovery, ${SKILLS} skills (in process)`, times.full));
results.push(row("discovery, no skill folder (in process)", times.empty));
// On a shared, loaded machine the wall median moves with others' load; the CPU median is the work itself.
if (median(times.full.map((t) => t.cpuMs)) >= TARGET_MS) failed = true;

if (!process.argv.includes("--no-process")) {
  const server = await startFakeLlmServer();
  const processEnv = {
    ...env,
    ANTHROPIC_API_KEY: "sk-ant-bench-0000",
    ANTHROPIC_BASE_URL: server.anthropicBaseUrl,
  };
  const targets = [
    { name: `agent run, ${SKILLS} skills`, cmd: [AGENT, "run", "hi"], cwd: full },
    { name: "agent run, no skill folder", cmd: [AGENT, "run", "hi"], cwd: empty },
    ...(BASELINE
      ? [{ name: "baseline agent run, no skill folder", cmd: [BASELINE, "run", "hi"], cwd: empty }]
      : []),
  ];
  const taken = new Map<string, { ms: number; cpuMs: number }[]>(targets.map((t) => [t.name, []]));
  for (let round = 0; round < WARMUP + RUNS; round++) {
    for (const target of targets) {
      server.enqueue({ text: "hi" });
      const start = performance.now();
      const proc = Bun.spawn(target.cmd, {
        env: processEnv,
        cwd: target.cwd,
        stdout: "pipe",
        stderr: "pipe",
      });
      const code = await proc.exited;
      const ms = performance.now() - start;
      if (code !== 0)
        throw new Error(`${target.name} exited ${code}: ${await new Response(proc.stderr).text()}`);
      const usage = proc.resourceUsage();
      const cpuMs = usage ? (Number(usage.cpuTime.user) + Number(usage.cpuTime.system)) / 1000 : Number.NaN;
      if (round >= WARMUP) taken.get(target.name)?.push({ ms, cpuMs });
    }
  }
  await server.close();
  for (const target of targets) results.push(row(target.name, taken.get(target.name) ?? []));
  // The child's CPU time: what the skills cost the run itself, whatever else loads the machine.
  const cpuOf = (name: string) => median((taken.get(name) ?? []).map((t) => t.cpuMs));
  const added = cpuOf(targets[0]!.name) - cpuOf(targets[1]!.name);
  results.push([`added by ${SKILLS} skills (whole process, CPU)`, "", "", added.toFixed(1)]);
  if (added >= TARGET_MS) failed = true;
}

rmSync(dir, { recursive: true, force: true });
const widths = results[0]!.map((_, c) => Math.max(...results.map((r) => (r[c] ?? "").length)));
for (const row of results) console.log(row.map((cell, c) => cell.padEnd(widths[c] ?? 0)).join("  "));
console.log(
  `targets: discovery of ${SKILLS} skills < ${TARGET_MS} ms CPU; whole-process CPU difference < ${TARGET_MS} ms${failed ? "  MISSED" : "  met"}`,
);
process.exit(failed ? 1 : 0);
