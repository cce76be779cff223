/**
 * Whole-process long-session benchmark (run: `bun bench/long-session.ts`, or `bun run bench:long-session`).
 *
 * The compiled binary runs against the project's fake Anthropic server (test/support) over HTTP on
 * 127.0.0.1, with zero model latency:
 *   helper  1,000 turns of `agent helper --tools read_file`: each turn the model reads 3 lines of a file
 *           (a different range each time, so the stall detector stays quiet), then answers.
 *   run     500 turns of `agent run` with a user agent that has read_file and code-reader: every 50th
 *           turn delegates to code-reader (which reads once, then answers); the other turns read 3 lines.
 * The agent's own time per turn is the gap between the end of one response and the arrival of the next
 * request, both stamped by the fake server, so the server's own time is left out. Printed per scenario:
 * mean ms per turn over turns 50-100 and over the second half, their ratio, the agent process's peak RSS
 * (the kernel's max RSS of the exited child: Bun's `resourceUsage().maxRSS`, the figure
 * `/usr/bin/time -v` prints), and the share of requests whose message list extends the previous request
 * of the same conversation unchanged (prefix-stable; a conversation's first request is not counted).
 *
 *   bun bench/long-session.ts [--binary dist/agent] [--baseline OTHER_BINARY]...
 *                             [--turns 1000] [--run-turns 500] [--delegate-every 50] [--only helper|run]
 *                             [--repeat 1] [--cpu-prof DIR]
 *
 * Without --binary it builds dist/agent first (`bun run build`). With --baseline (repeatable: main's build
 * and a release's) every binary runs in the same invocation (alternating per scenario) and prints side by side. `--repeat N` runs each scenario N
 * times per binary, alternating, and shows each binary's run with the shortest wall time (the one a busy
 * machine disturbed least). Every agent process is killed
 * after --limit-s seconds (default 600), so the benchmark always ends. Nothing here asserts a time.
 * `--cpu-prof DIR` has every agent process write a CPU profile (Bun's `--cpu-prof --cpu-prof-dir=DIR`,
 * passed through BUN_OPTIONS, which a compiled binary reads too) as CPU.*.cpuprofile into DIR.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { FakeRequest, FakeTurn } from "../test/support/fake-llm-server.ts";
import { startFakeLlmServer } from "../test/support/fake-llm-server.ts";
import { option, options, positiveInteger } from "./args.ts";

const ROOT = resolve(import.meta.dir, "..");

const TURNS = positiveInteger("--turns", 1000);
const RUN_TURNS = positiveInteger("--run-turns", 500);
const DELEGATE_EVERY = positiveInteger("--delegate-every", 50);
const LIMIT_MS = positiveInteger("--limit-s", 600) * 1000;
const REPEAT = positiveInteger("--repeat", 1);
const ONLY = option("--only");
const CPU_PROF_DIR = option("--cpu-prof");
const FILE_LINES = Math.max(TURNS, RUN_TURNS) + 10;

/** What one scenario measured for one binary. */
interface Measure {
  turns: number;
  early: number;
  secondHalf: number;
  ratio: number;
  medianEarly: number;
  medianSecondHalf: number;
  /** The agent process's CPU time (user + system) per request, whole run: robust to a loaded machine. */
  cpuPerTurn: number;
  /** CPU ms per turn of the agent over turns 50-100 and over the second half (from /proc). */
  cpuEarly: number;
  cpuSecondHalf: number;
  peakMiB: number;
  stable: number;
  compared: number;
  breaks: string[];
  wallS: number;
}

/**
 * Anthropic's `cache_control` marks where a cached prefix ends; the adapter moves it to the newest block
 * each turn, as the API's own automatic caching does ("applies the cache breakpoint to the last cacheable
 * block and moves it forward as the conversation grows": platform.claude.com/docs/en/build-with-claude/
 * prompt-caching), so the marker is not content and the comparison ignores it.
 */
const withoutCacheMarks = (key: string, value: unknown): unknown =>
  key === "cache_control" ? undefined : value;

/** Tracks prefix stability per conversation (keyed by system prompt and tools) and keeps only timings. */
class RequestLog {
  readonly timings: FakeRequest[] = [];
  /** The agent's CPU time (ms) when each request arrived; NaN where /proc cannot tell. */
  readonly cpuAt: number[] = [];
  /** The agent's pid, once spawned. */
  pid: number | undefined;
  stable = 0;
  compared = 0;
  readonly breaks: string[] = [];
  private readonly last = new Map<string, string[]>();

  take = (request: FakeRequest): void => {
    const body = request.body as { system?: unknown; tools?: unknown; messages?: unknown[] } | null;
    request.body = null; // the bench keeps timings only: a long session's bodies add up to gigabytes
    this.timings.push(request);
    this.cpuAt.push(this.pid === undefined ? Number.NaN : procCpuMs(this.pid));
    if (!body || !Array.isArray(body.messages)) return;
    const key = JSON.stringify([body.system, body.tools]);
    const messages = body.messages.map((m) => JSON.stringify(m, withoutCacheMarks));
    const previous = this.last.get(key);
    this.last.set(key, messages);
    // A conversation's first request (a new sub-agent, a compaction call) has nothing to extend.
    if (!previous || messages.length === 1) return;
    this.compared++;
    const extended =
      messages.length > previous.length && previous.every((message, i) => message === messages[i]);
    if (extended) this.stable++;
    else if (this.breaks.length < 5) {
      const at = previous.findIndex((message, i) => message !== messages[i]);
      this.breaks.push(`request ${this.timings.length}: message ${at} of ${previous.length} changed`);
    }
  };
}

/** User plus system CPU time of an exited child, in ms (resourceUsage reports microseconds). */
function cpuMs(usage: ReturnType<Bun.Subprocess["resourceUsage"]>): number {
  if (!usage) return Number.NaN;
  return Number(usage.cpuTime.user + usage.cpuTime.system) / 1000;
}

/**
 * A process's CPU time so far (user + system, all threads) from /proc/PID/stat, in ms: fields 14 and 15,
 * in clock ticks of 10 ms (USER_HZ is 100 on Linux: man 5 proc). NaN when unreadable (not Linux).
 * Sampled at each request's arrival, it gives the agent's CPU per turn over a window, which other load
 * on the machine moves far less than wall time.
 */
function procCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

/** CPU ms per request between the arrivals of requests `from` and `to` (indexes into cpuAt). */
function cpuPerTurnOver(cpuAt: number[], from: number, to: number): number {
  const a = cpuAt[from];
  const b = cpuAt[to];
  return a === undefined || b === undefined || to <= from ? Number.NaN : (b - a) / (to - from);
}

function mean(values: number[]): number {
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : Number.NaN;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)]! : Number.NaN;
}

/** A temporary HOME, XDG dirs and a workspace holding `data.txt`. */
function makeSandbox(): { dir: string; workspace: string; config: string; env: Record<string, string> } {
  const dir = mkdtempSync(join(tmpdir(), "agent-long-"));
  const workspace = join(dir, "ws");
  const config = join(dir, "config");
  for (const d of ["home", "config", "state", "cache", "ws"]) mkdirSync(join(dir, d));
  const lines = Array.from({ length: FILE_LINES }, (_, i) => `line ${i + 1}: the quick brown fox ${i * 7}`);
  writeFileSync(join(workspace, "data.txt"), `${lines.join("\n")}\n`);
  return {
    dir,
    workspace,
    config,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: join(dir, "home"),
      XDG_CONFIG_HOME: config,
      XDG_STATE_HOME: join(dir, "state"),
      XDG_CACHE_HOME: join(dir, "cache"),
      ANTHROPIC_API_KEY: "sk-ant-bench-0000000000",
    },
  };
}

const read = (offset: number): FakeTurn => ({
  toolCalls: [{ name: "read_file", args: { path: "data.txt", offset, limit: 3 } }],
});

function helperTurns(): FakeTurn[] {
  const turns = Array.from({ length: TURNS }, (_, i) => read(i + 1));
  turns.push({ text: "done" });
  return turns;
}

/** Root turns, with a child's two turns (read, answer) queued right after each delegation. */
function runTurns(): FakeTurn[] {
  const turns: FakeTurn[] = [];
  for (let t = 1; t <= RUN_TURNS; t++) {
    if (t % DELEGATE_EVERY === 0) {
      turns.push({
        toolCalls: [{ name: "code-reader", args: { goal: `Summarise data.txt from line ${t}` } }],
      });
      turns.push(read(t), { text: `lines ${t}-${t + 2} are about a fox` });
    } else turns.push(read(t));
  }
  turns.push({ text: "done" });
  return turns;
}

const LEAD_SPEC = `name: bench-lead
description: Reads data.txt a few lines at a time and delegates a summary now and then.
version: 1
model: fast
capabilities: [read_file, code-reader]
constraints:
  max_turns: ${RUN_TURNS + 10}
  max_depth: 2
  timeout_ms: ${LIMIT_MS}
  can_spawn: true
  can_learn: false
system_prompt: |
  You read data.txt in small ranges and ask code-reader for summaries.
`;

/** BUN_OPTIONS that make an agent process write its CPU profile into --cpu-prof DIR (none without it). */
function profileEnv(): Record<string, string> {
  if (!CPU_PROF_DIR) return {};
  const dir = resolve(CPU_PROF_DIR);
  mkdirSync(dir, { recursive: true });
  return { BUN_OPTIONS: `--cpu-prof --cpu-prof-dir=${dir}` };
}

async function scenario(binary: string, kind: "helper" | "run"): Promise<Measure> {
  const sandbox = makeSandbox();
  const log = new RequestLog();
  const server = await startFakeLlmServer({ onRequest: log.take });
  const turns = kind === "helper" ? helperTurns() : runTurns();
  server.enqueue(...turns);
  let args: string[];
  if (kind === "helper") {
    args = ["helper", "--tools", "read_file", "--max-turns", String(TURNS + 1), "Read data.txt"];
  } else {
    mkdirSync(join(sandbox.config, "agent", "agents"), { recursive: true });
    writeFileSync(join(sandbox.config, "agent", "agents", "bench-lead.yaml"), LEAD_SPEC);
    args = [
      "run",
      "--agent",
      "bench-lead",
      "--max-turns",
      String(RUN_TURNS + 1),
      "--on-ask",
      "deny",
      "Read data.txt",
    ];
  }
  const started = performance.now();
  const proc = Bun.spawn([binary, ...args], {
    cwd: sandbox.workspace,
    env: { ...sandbox.env, ANTHROPIC_BASE_URL: server.anthropicBaseUrl, ...profileEnv() },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  log.pid = proc.pid;
  const killer = setTimeout(() => proc.kill("SIGKILL"), LIMIT_MS);
  try {
    const [stdout, stderr, code] = await Promise.all([
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
      proc.exited,
    ]);
    const wallS = (performance.now() - started) / 1000;
    if (code !== 0 || stdout.trim() !== "done" || server.pending() !== 0) {
      throw new Error(
        `${binary} ${kind}: exit ${code}, ${server.pending()} turns unserved, stdout ${JSON.stringify(stdout.slice(0, 200))}, stderr ${stderr.slice(-800)}`,
      );
    }
    const requests = log.timings;
    // gaps[k]: the agent's time after response k+1 until request k+2 (turn k+1's own cost).
    const gaps: number[] = [];
    for (let i = 1; i < requests.length; i++) {
      const before = requests[i - 1]!.respondedAt;
      if (before !== undefined) gaps.push(requests[i]!.receivedAt - before);
    }
    const early = mean(gaps.slice(49, 100));
    const half = gaps.slice(Math.floor(gaps.length / 2));
    const secondHalf = mean(half);
    return {
      turns: requests.length,
      early,
      secondHalf,
      ratio: secondHalf / early,
      medianEarly: median(gaps.slice(49, 100)),
      medianSecondHalf: median(half),
      cpuPerTurn: cpuMs(proc.resourceUsage()) / requests.length,
      cpuEarly: cpuPerTurnOver(log.cpuAt, 50, 101),
      cpuSecondHalf: cpuPerTurnOver(log.cpuAt, Math.floor(log.cpuAt.length / 2), log.cpuAt.length - 1),
      peakMiB: (proc.resourceUsage()?.maxRSS ?? 0) / 1024 / 1024,
      stable: log.stable,
      compared: log.compared,
      breaks: log.breaks,
      wallS,
    };
  } finally {
    clearTimeout(killer);
    await server.close();
    rmSync(sandbox.dir, { recursive: true, force: true });
  }
}

async function build(): Promise<string> {
  process.stderr.write("building dist/agent (bun run build) ...\n");
  const proc = Bun.spawn([process.execPath, "run", "build"], {
    cwd: ROOT,
    stdout: "ignore",
    stderr: "inherit",
  });
  if ((await proc.exited) !== 0) throw new Error("bun run build failed");
  return join(ROOT, "dist", "agent");
}

function table(kind: string, columns: { name: string; m: Measure }[]): void {
  const rows: [string, (m: Measure) => string][] = [
    ["requests", (m) => String(m.turns)],
    ["ms/turn, turns 50-100", (m) => m.early.toFixed(2)],
    ["ms/turn, second half", (m) => m.secondHalf.toFixed(2)],
    ["ratio second half / 50-100", (m) => m.ratio.toFixed(2)],
    ["median ms/turn, turns 50-100", (m) => m.medianEarly.toFixed(2)],
    ["median ms/turn, second half", (m) => m.medianSecondHalf.toFixed(2)],
    ["median ratio", (m) => (m.medianSecondHalf / m.medianEarly).toFixed(2)],
    ["agent CPU ms/request (whole run)", (m) => m.cpuPerTurn.toFixed(2)],
    ["agent CPU ms/turn, turns 50-100", (m) => m.cpuEarly.toFixed(2)],
    ["agent CPU ms/turn, second half", (m) => m.cpuSecondHalf.toFixed(2)],
    ["CPU ratio", (m) => (m.cpuSecondHalf / m.cpuEarly).toFixed(2)],
    ["peak RSS MiB", (m) => m.peakMiB.toFixed(1)],
    [
      "prefix-stable requests",
      (m) => `${((100 * m.stable) / Math.max(1, m.compared)).toFixed(1)}% (${m.stable}/${m.compared})`,
    ],
    ["wall s", (m) => m.wallS.toFixed(1)],
  ];
  const cells = [
    [kind, ...columns.map((c) => c.name)],
    ...rows.map(([label, f]) => [label, ...columns.map((c) => f(c.m))]),
  ];
  const widths = cells[0]!.map((_, col) => Math.max(...cells.map((row) => row[col]!.length)));
  for (const row of cells)
    console.log(
      row
        .map((cell, col) => (col === 0 ? cell.padEnd(widths[col]!) : cell.padStart(widths[col]!)))
        .join("  "),
    );
  for (const c of columns) for (const b of c.m.breaks) console.log(`  ${c.name}: prefix break at ${b}`);
  console.log();
}

async function main(): Promise<void> {
  const given = option("--binary");
  const binary = given ? resolve(given) : await build();
  const binaries = [binary, ...options("--baseline").map((b) => resolve(b))].map((path) => ({
    name: path,
    path,
  }));
  console.log(
    `long session: ${TURNS} helper turns, ${RUN_TURNS} run turns (a delegation every ${DELEGATE_EVERY}), fake Anthropic server over HTTP, zero latency, Bun ${Bun.version}`,
  );
  const kinds = (["helper", "run"] as const).filter((k) => !ONLY || ONLY === k);
  for (const kind of kinds) {
    // Binaries alternate, REPEAT times; each binary's least disturbed run (shortest wall time) is shown.
    const best = new Map<string, Measure>();
    for (let round = 1; round <= REPEAT; round++) {
      for (const b of binaries) {
        process.stderr.write(`${kind}: ${b.path} (round ${round}/${REPEAT}) ...\n`);
        const m = await scenario(b.path, kind);
        const kept = best.get(b.name);
        if (!kept || m.wallS < kept.wallS) best.set(b.name, m);
      }
    }
    const columns = binaries.map((b) => ({ name: b.name, m: best.get(b.name) as Measure }));
    table(
      kind === "helper" ? `helper --tools read_file (${TURNS} turns)` : `run (${RUN_TURNS} turns)`,
      columns,
    );
  }
}

await main();
