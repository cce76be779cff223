/**
 * Chat start-up benchmark: the time from starting `agent` (the chat) on a terminal until its input box is
 * on the screen, as a user waits for it. Each sample starts `bin/agent` in a fresh tmux pane (120x40,
 * TERM=xterm-256color, a private tmux server) and polls the pane (`capture-pane`) every few milliseconds
 * until the input box's key hint (`Enter send`) shows; then Ctrl-D ends the chat. The fake LLM server is
 * configured as the Anthropic endpoint, but opening a chat makes no model call.
 *
 *   bun bench/chat-startup.ts [--runs 10] [--warmup 2] [--baseline OTHER_CHECKOUT]...
 *
 * `--baseline` adds another checkout's `bin/agent` (e.g. an export of main before a change, with its own
 * or a linked node_modules) to the same rounds; checkouts take turns in each round (the order alternates),
 * so load from other processes falls on each alike. The table gives each checkout's median and minimum
 * milliseconds and the ratio of its median to this checkout's. No target: the figure is for comparing
 * builds in one run (a loaded machine moves every absolute number).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
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
}

let sessions = 0;

/** Milliseconds from starting the chat until the input box is on the pane. */
async function timeToInputBox(target: Target, env: Record<string, string>, cwd: string): Promise<number> {
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
      if (INPUT_BOX.test(screen)) return performance.now() - start;
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
  const targets: Target[] = [{ name: "this checkout", bin: join(here, "bin", "agent"), samples: [] }];
  for (const [n, dir] of BASELINES.entries()) {
    const bin = join(dir, "bin", "agent");
    if (!existsSync(bin)) throw new Error(`--baseline ${dir}: no bin/agent there`);
    targets.push({ name: BASELINES.length === 1 ? "baseline" : `baseline ${n + 1}`, bin, samples: [] });
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
        const ms = await timeToInputBox(target, env, join(sandbox, "workspace"));
        if (round >= WARMUP) target.samples.push(ms);
      }
    }
  } finally {
    Bun.spawnSync([TMUX!, "-L", SOCKET, "kill-server"], { stdout: "ignore", stderr: "ignore" });
    await server.close();
    rmSync(sandbox, { recursive: true, force: true });
  }
  const ours = median(targets[0]!.samples);
  console.log(
    `chat start-up: ${RUNS} rounds after ${WARMUP} warm-up, time from start to the input box on a tmux pane, Bun ${Bun.version}`,
  );
  console.log(
    `${"target".padEnd(16)} ${"median ms".padStart(10)} ${"min ms".padStart(8)} ${"÷ this".padStart(7)}`,
  );
  for (const target of targets) {
    const m = median(target.samples);
    console.log(
      `${target.name.padEnd(16)} ${m.toFixed(0).padStart(10)} ${Math.min(...target.samples)
        .toFixed(0)
        .padStart(8)} ${(m / ours).toFixed(2).padStart(7)}`,
    );
  }
}

await main();
