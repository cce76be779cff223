/**
 * Renderer benchmark: a synthetic run (delegations, tool calls, text deltas) through the Ink renderer
 * into a fake terminal, and through the plain and stream-json renderers, reporting CPU time and memory.
 *
 *   bun bench/render.ts [--events 5000]
 *   bun bench/render.ts --baseline OTHER_CHECKOUT [--rounds 5]
 *
 * A case's CPU is the whole process's user + system time from the first event until the background threads
 * it set to work (JIT compilation, concurrent GC) are idle again, so no case is billed for the one before.
 *
 * Targets: under 1 s CPU for 5,000 events through Ink, and memory that stays flat (heap after the run,
 * post-GC, close to the heap before it; the Static history is handed to the terminal and dropped).
 *
 * `--baseline` compares this checkout's renderers with another checkout's (e.g. a worktree of main before a
 * change, with its own node_modules): each round runs one process per checkout, alternating, on the same
 * synthetic events; the table gives each case's median CPU ms (user + system, which other load moves least)
 * and the ratio this/baseline. `--root DIR` (used by those processes) loads the renderers from DIR.
 */

import { EventEmitter } from "node:events";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { emptyUsage } from "../src/kernel/index.ts";
import { type AgentEvent, type AgentIdentity, makeEvent } from "../src/kernel/run-events/events.ts";
import type { Renderer, TextSink } from "../src/ui/renderer-types.ts";
import type { FinishedRun } from "../src/ui/result.ts";
import { FakeTtyIn } from "../test/ui/fake-tty.ts";
import { option } from "./args.ts";

const EVENT_COUNT = Number(option("--events") ?? 5000);
const ROUNDS = Number(option("--rounds") ?? 5);
const BASELINE = option("--baseline");
const ROOT = resolve(option("--root") ?? resolve(import.meta.dir, ".."));
/** One process's results as JSON on stdout, for the --baseline comparison. */
const AS_JSON = process.argv.includes("--json");

/** The renderers of the checkout at ROOT (this one by default; another one's modules under --baseline). */
/** Where the checkout keeps the Ink renderer: ink/run/ since the ink folder was split, ink/ before. */
const INK_RENDERER = ["src/ui/ink/run/ink-renderer.tsx", "src/ui/ink/ink-renderer.tsx"]
  .map((path) => `${ROOT}/${path}`)
  .find((path) => existsSync(path));
if (INK_RENDERER === undefined) throw new Error(`${ROOT}: no src/ui/ink renderer found`);
const { createInkRenderer }: typeof import("../src/ui/ink/run/ink-renderer.tsx") = await import(INK_RENDERER);
const { JsonRenderer, StreamJsonRenderer }: typeof import("../src/ui/json-renderers.ts") = await import(
  `${ROOT}/src/ui/json-renderers.ts`
);
const { PlainRenderer }: typeof import("../src/ui/plain-renderer.ts") = await import(
  `${ROOT}/src/ui/plain-renderer.ts`
);
const usage = { ...emptyUsage(), inputTokens: 1200, outputTokens: 300 };

/** Builds a run of about `count` events: turns of streamed text, tool calls, and nested delegations. */
function syntheticRun(count: number): AgentEvent[] {
  const events: AgentEvent[] = [];
  const root: AgentIdentity = { agent: "root", name: "root", depth: 0 };
  events.push(
    makeEvent(root, "session_start", {
      sessionId: "bench",
      goal: "refactor everything",
      agentName: "root",
      model: "m",
      cwd: "/w",
    }),
  );
  let serial = 0;
  const childCounters = new Map<string, number>();
  const turn = (who: AgentIdentity, n: number): void => {
    events.push(makeEvent(who, "plan_start", { turn: n, model: "m" }));
    let text = "";
    for (let i = 0; i < 12; i++) {
      const delta = i % 4 === 3 ? `line ${i} of turn ${n}\n` : `word${i} `;
      text += delta;
      events.push(makeEvent(who, "text_delta", { delta }));
    }
    const calls = [0, 1].map(() => ({ id: `t${serial++}`, name: serial % 2 ? "read_file" : "exec" }));
    events.push(
      makeEvent(who, "plan_end", { turn: n, stopReason: "tool_use", usage, text, toolCalls: calls }),
    );
    for (const call of calls) {
      const args =
        call.name === "exec" ? { command: `npm test -- shard ${serial}` } : { path: `src/file-${serial}.ts` };
      events.push(makeEvent(who, "tool_start", { id: call.id, tool: call.name, args }));
      events.push(
        makeEvent(who, "tool_end", {
          id: call.id,
          tool: call.name,
          isError: serial % 17 === 0,
          summary: "42 lines",
          display: "",
          durationMs: 12,
        }),
      );
    }
  };
  const agent = (who: AgentIdentity): void => {
    for (let n = 1; n <= 3 && events.length < count; n++) {
      turn(who, n);
      if (who.depth < 3 && events.length < count) {
        const name = ["code-reader", "code-editor", "command-runner"][serial++ % 3] ?? "x";
        // Ids as the loop makes them (src/agents/loop/sub-agents.ts childIdentity): numbered per parent and
        // name, so `#2` appears where a parent delegates to one name twice, as in a real run.
        const key = `${who.agent}/${name}`;
        const index = (childCounters.get(key) ?? 0) + 1;
        childCounters.set(key, index);
        const child: AgentIdentity = {
          agent: `${key}#${index}`,
          name,
          parent: who.agent,
          depth: who.depth + 1,
        };
        events.push(
          makeEvent(who, "act_start", {
            id: `a${serial}`,
            child: child.agent,
            childName: name,
            goal: `part ${serial}`,
          }),
        );
        agent(child);
        events.push(
          makeEvent(who, "act_end", {
            id: `a${serial}`,
            child: child.agent,
            childName: name,
            status: "success",
            finishReason: "stop",
            answer: "done",
          }),
        );
      }
    }
  };
  while (events.length < count) agent(root);
  return events;
}

class NullTty extends EventEmitter implements TextSink {
  readonly isTTY = true;
  columns = 120;
  rows = 40;
  bytes = 0;
  write(chunk: string, callback?: (error?: Error | null) => void): boolean {
    this.bytes += chunk.length;
    callback?.();
    return true;
  }
}

const finished: FinishedRun = {
  status: "success",
  finishReason: "stop",
  answer: "All done.",
  usage: [],
  sessionId: "bench",
  exitCode: 0,
};
const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const yieldNow = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

interface Measure {
  name: string;
  /** User + system CPU of the whole process during the run, plus {@link afterMs}. */
  cpuMs: number;
  /** CPU the process spent after the run until its background threads settled (JIT, GC). */
  afterMs: number;
  wallMs: number;
  heapBefore: number;
  heapPeak: number;
  heapAfter: number;
  out: number;
}

const cpuNow = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/**
 * Waits until the process's background threads (JIT compilers, concurrent GC) are idle: a 100 ms sleep that
 * costs under 5 ms CPU, at most 20 tries. Returns the CPU used before that quiet window. A case leaves such
 * work behind (hundreds of ms after an Ink run): it is counted in that case, never in the next one.
 */
async function settle(): Promise<number> {
  let spilled = 0;
  for (let i = 0; i < 20; i++) {
    const before = cpuNow();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const used = cpuNow() - before;
    if (used < 5) break;
    spilled += used;
  }
  return spilled;
}

async function measure(
  name: string,
  make: (out: NullTty) => Renderer,
  events: AgentEvent[],
  yieldEvery: number,
): Promise<Measure> {
  Bun.gc(true);
  await settle();
  const heapBefore = process.memoryUsage().heapUsed;
  let heapPeak = heapBefore;
  const out = new NullTty();
  const cpu = process.cpuUsage();
  const wall = performance.now();
  const renderer = make(out);
  for (let i = 0; i < events.length; i++) {
    renderer.onEvent(events[i] as AgentEvent);
    if (i % yieldEvery === yieldEvery - 1) {
      await yieldNow();
      if (i % 500 === 499) heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
    }
  }
  await renderer.finish(finished);
  const used = process.cpuUsage(cpu);
  const wallMs = performance.now() - wall;
  heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
  const afterMs = await settle();
  Bun.gc(true);
  const heapAfter = process.memoryUsage().heapUsed;
  return {
    name,
    cpuMs: (used.user + used.system) / 1000 + afterMs,
    afterMs,
    wallMs,
    heapBefore,
    heapPeak,
    heapAfter,
    out: out.bytes,
  };
}

function ink(flushMs: number): (out: NullTty) => Renderer {
  return (out) =>
    createInkRenderer({
      colors: true,
      flushMs,
      stdout: out as unknown as NodeJS.WriteStream,
      stderr: new NullTty() as unknown as NodeJS.WriteStream,
      stdin: new FakeTtyIn().asStream(),
      patchConsole: false,
      interactive: true,
      costOf: () => 0.0001,
    });
}

/** Heap after a full GC at each quarter of the run: flat means the UI keeps no per-event state. */
async function heapProfile(events: AgentEvent[]): Promise<string[]> {
  const samples: string[] = [];
  Bun.gc(true);
  samples.push(mb(process.memoryUsage().heapUsed));
  const renderer = ink(50)(new NullTty());
  const quarter = Math.floor(events.length / 4);
  for (let i = 0; i < events.length; i++) {
    renderer.onEvent(events[i] as AgentEvent);
    if (i % 10 === 9) await yieldNow();
    if (i % quarter === quarter - 1) {
      await new Promise((resolve) => setTimeout(resolve, 60)); // let the store flush and Ink print
      Bun.gc(true);
      samples.push(mb(process.memoryUsage().heapUsed));
    }
  }
  await renderer.finish(finished);
  return samples;
}

/** Every case, measured once in this process (after a warm-up of module loading and JIT). */
async function measureAll(events: AgentEvent[]): Promise<Measure[]> {
  await measure("warm-up", ink(0), syntheticRun(300), 10);
  return [
    await measure("ink, flush every yield (500 renders, stress)", ink(0), events, 10),
    await measure("ink, 50 ms batching (default)", ink(50), events, 10),
    await measure(
      "plain",
      (out) => new PlainRenderer({ stdout: out, stderr: out, colors: true }),
      events,
      10,
    ),
    await measure(
      "stream-json",
      (out) => new StreamJsonRenderer({ stdout: out, stderr: new NullTty() }),
      events,
      10,
    ),
    await measure("json", (out) => new JsonRenderer({ stdout: out, stderr: new NullTty() }), events, 10),
  ];
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/** One process of `bun bench/render.ts --json --root DIR`: its cases' CPU ms. */
async function runChild(root: string): Promise<Measure[]> {
  const cmd = [process.execPath, import.meta.path, "--json", "--root", root, "--events", String(EVENT_COUNT)];
  const proc = Bun.spawn(cmd, { stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  const json = stdout.match(/\{"root".*\}/)?.[0];
  if (code !== 0 || json === undefined)
    throw new Error(`bench under ${root} failed (exit ${code}): ${stderr}`);
  return (JSON.parse(json) as { results: Measure[] }).results;
}

/** Rounds of one process per checkout, alternating (which goes first alternates too), so load falls alike. */
async function compare(baseline: string): Promise<void> {
  const here = ROOT;
  const samples = new Map<string, { here: number[]; base: number[] }>();
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? [here, baseline] : [baseline, here];
    for (const root of order) {
      for (const r of await runChild(root)) {
        const entry = samples.get(r.name) ?? { here: [], base: [] };
        (root === here ? entry.here : entry.base).push(r.cpuMs);
        samples.set(r.name, entry);
      }
    }
    process.stderr.write(`round ${round + 1}/${ROUNDS} done\n`);
  }
  console.log(
    `render: ${ROUNDS} rounds, ${EVENT_COUNT} events, CPU ms median (all samples), this vs ${baseline}`,
  );
  console.log(`${"case".padEnd(46)} ${"this".padStart(7)} ${"baseline".padStart(9)}  ratio`);
  for (const [name, s] of samples) {
    const a = median(s.here);
    const b = median(s.base);
    const all = (v: number[]) => v.map((x) => x.toFixed(0)).join("/");
    console.log(
      `${name.padEnd(46)} ${a.toFixed(0).padStart(7)} ${b.toFixed(0).padStart(9)}  ${(a / b).toFixed(2)}   (${all(s.here)} vs ${all(s.base)})`,
    );
  }
}

if (BASELINE !== undefined) {
  await compare(resolve(BASELINE));
  process.exit(0);
}

const events = syntheticRun(EVENT_COUNT);
const results = await measureAll(events);
if (AS_JSON) {
  console.log(JSON.stringify({ root: ROOT, results }));
  process.exit(0);
}
const kinds = new Map<string, number>();
for (const e of events) kinds.set(e.kind, (kinds.get(e.kind) ?? 0) + 1);
console.log(`${events.length} events: ${[...kinds].map(([k, n]) => `${k} ${n}`).join(", ")}`);
for (const r of results) {
  console.log(
    `${r.name.padEnd(46)} cpu ${r.cpuMs.toFixed(0).padStart(5)} ms (${r.afterMs.toFixed(0)} after)  wall ${r.wallMs.toFixed(0).padStart(5)} ms  ` +
      `heap before ${mb(r.heapBefore)}, peak ${mb(r.heapPeak)}, after ${mb(r.heapAfter)}  out ${mb(r.out)}`,
  );
}
console.log(`ink heap after GC at 0/25/50/75/100% of the run: ${(await heapProfile(events)).join(" → ")}`);
process.exit(0);
