/**
 * Chat start-up benchmark: the time from starting `agent` (the chat) on a terminal until its input box is
 * on the screen, as a user waits for it. Each sample starts `bin/agent` in a fresh tmux pane (120x40,
 * TERM=xterm-256color, a private tmux server) and polls the pane (`capture-pane`) every few milliseconds
 * until the input box's key hint (`Enter send`) shows; it then reads the CPU time (user + system, from
 * /proc/PID/stat) the agent's process had used by then, which other load moves least, and Ctrl-D ends
 * the chat. The fake LLM server is configured as the Anthropic endpoint; opening a chat calls no model.
 *
 *   bun bench/chat-startup.ts [--runs 10] [--warmup 2] [--baseline OTHER_CHECKOUT]...
 *
 * `--baseline` adds another checkout's `bin/agent` (e.g. an export of main before a change, with its own
 * or a linked node_modules) to the same rounds; checkouts take turns in each round (the order alternates),
 * so load from other processes falls on each alike. The table gives each checkout's median and minimum
 * wall milliseconds, its median CPU milliseconds, and the ratios of its medians to this checkout's. No
 * target: the figures compare builds in one run (a loaded machine moves every absolute number).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startFakeLlmServer } from "../test/support/fake-llm-server.ts";
import { options, positiveInteger } from "./args.ts";

const RUNS = positiveInteger("--runs", 10);
const WARMUP = positiveInteger("--warmup", 2);
const BASELINES = options("--baseline").map((dir) => resolve(dir));
/** The chat's input box: its key hint line (src/ui/ink/chat/chat-input.tsx). */
const INPUT_BOX = /Enter send/;
const POLL_MS = 5;
const GIVE_UP_MS = 30_000;

const TMUX = Bun.which("tmux");
if (TMUX === null) throw new Error("tmux is not installed: this benchmark drives the chat in a tmux pane");
const SOCKET = `agent-bench-chat-${process.pid}`;

function tmux(...args: string[]): string {
  const result = Bun.spawnSync([TMUX!, "-L", SOCKET, ...args], { stdout: "pipe", stderr: "pipe" });
  if (result.exitCode !== 0) throw new Error(`tmux ${args.join(" ")}: ${result.stderr.toString().trim()}`);
  return result.stdout.toString();
}

const quote = (text: string): string => `'${text.replace(/'/g, "'\\''")}'`;

interface Target {
  name: string;
  bin: string;
  samples: number[];
  /** CPU milliseconds (user + system) the agent had used when its input box showed. */
  cpu: number[];
}

/** Clock ticks per second of /proc/PID/stat's utime and stime (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** The agent's process in the pane: the one child of the pane's shell (env and bin/agent exec into Bun). */
function agentPid(session: string): number | undefined {
  const shell = tmux("display-message", "-p", "-t", session, "#{pane_pid}").trim();
  try {
    const children = readFileSync(`/proc/${shell}/task/${shell}/children`, "utf8").trim().split(/\s+/);
    return children[0] ? Number(children[0]) : undefined;
  } catch {
    return undefined;
  }
}

/** User + system CPU milliseconds of `pid` so far (/proc/PID/stat fields 14 and 15). */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

let sessions = 0;

/** Wall and CPU milliseconds from starting the chat until the input box is on the pane. */
async function timeToInputBox(
  target: Target,
  env: Record<string, string>,
  cwd: string,
): Promise<{ ms: number; cpu: number }> {
  sessions += 1;
  const name = `s${sessions}`;
  const assignments = Object.entries(env)
    .map(([k, v]) => quote(`${k}=${v}`))
    .join(" ");
  const script = `cd ${quote(cwd)} && env -i ${assignments} ${quote(target.bin)}; echo EXIT=$?; exec sleep 600`;
  const start = performance.now();
  tmux("new-session", "-d", "-s", name, "-x", "120", "-y", "40", "sh", "-c", script);
  try {
    for (;;) {
      const screen = tmux("capture-pane", "-p", "-t", name);
      if (INPUT_BOX.test(screen)) {
        const ms = performance.now() - start;
        const pid = agentPid(name);
        return { ms, cpu: pid === undefined ? Number.NaN : cpuMs(pid) };
      }
      if (performance.now() - start > GIVE_UP_MS) {
        throw new Error(`${target.name}: no input box after ${GIVE_UP_MS} ms; the screen:\n${screen}`);
      }
      await Bun.sleep(POLL_MS);
    }
  } finally {
    // The chat leaves on Ctrl-D; the next sample starts once it has gone, so it does not share the CPU.
    tmux("send-keys", "-t", name, "C-d");
    const deadline = performance.now() + GIVE_UP_MS;
    while (!/EXIT=\d+/.test(tmux("capture-pane", "-p", "-t", name)) && performance.now() < deadline)
      await Bun.sleep(20);
    tmux("kill-session", "-t", name);
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

async function main(): Promise<void> {
  const here = resolve(import.meta.dir, "..");
  const targets: Target[] = [
    { name: "this checkout", bin: join(here, "bin", "agent"), samples: [], cpu: [] },
  ];
  for (const [n, dir] of BASELINES.entries()) {
    const bin = join(dir, "bin", "agent");
    if (!existsSync(bin)) throw new Error(`--baseline ${dir}: no bin/agent there`);
    targets.push({
      name: BASELINES.length === 1 ? "baseline" : `baseline ${n + 1}`,
      bin,
      samples: [],
      cpu: [],
    });
  }
  const server = await startFakeLlmServer();
  const sandbox = mkdtempSync(join(tmpdir(), "agent-bench-chat-"));
  for (const d of ["home", "config", "state", "cache", "workspace"]) mkdirSync(join(sandbox, d));
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    TERM: "xterm-256color",
    HOME: join(sandbox, "home"),
    XDG_CONFIG_HOME: join(sandbox, "config"),
    XDG_STATE_HOME: join(sandbox, "state"),
    XDG_CACHE_HOME: join(sandbox, "cache"),
    ANTHROPIC_API_KEY: "sk-ant-bench-0000000000",
    ANTHROPIC_BASE_URL: server.anthropicBaseUrl,
  };
  // A session that outlives the samples: the tmux server would otherwise exit with each sample's session,
  // and the next sample's new-session could reach a server on its way out.
  tmux("new-session", "-d", "-s", "keep", "sleep 100000");
  try {
    for (let round = 0; round < WARMUP + RUNS; round++) {
      const order = round % 2 === 0 ? targets : [...targets].reverse();
      for (const target of order) {
        const { ms, cpu } = await timeToInputBox(target, env, join(sandbox, "workspace"));
        if (round >= WARMUP) {
          target.samples.push(ms);
          target.cpu.push(cpu);
        }
      }
    }
  } finally {
    Bun.spawnSync([TMUX!, "-L", SOCKET, "kill-server"], { stdout: "ignore", stderr: "ignore" });
    await server.close();
    rmSync(sandbox, { recursive: true, force: true });
  }
  const ours = median(targets[0]!.samples);
  const oursCpu = median(targets[0]!.cpu);
  console.log(
    `chat start-up: ${RUNS} rounds after ${WARMUP} warm-up, time from start to the input box on a tmux pane, Bun ${Bun.version}`,
  );
  const columns = ["median ms", "min ms", "÷ this", "CPU ms", "÷ this"];
  console.log(`${"target".padEnd(16)} ${columns.map((c) => c.padStart(10)).join(" ")}`);
  for (const target of targets) {
    const m = median(target.samples);
    const cpu = median(target.cpu);
    const cells = [m.toFixed(0), Math.min(...target.samples).toFixed(0), (m / ours).toFixed(2)];
    cells.push(cpu.toFixed(0), (cpu / oursCpu).toFixed(2));
    console.log(`${target.name.padEnd(16)} ${cells.map((c) => c.padStart(10)).join(" ")}`);
  }
}

await main();
