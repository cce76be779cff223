/**
 * Compaction benchmark (run: `bun bench/compaction.ts`): a 1,000-turn scripted session (the in-process
 * scripted provider, zero latency, a no-op tool) on a model whose reported input grows with the history,
 * so the conversation is compacted many times. Checks:
 *  - per-turn overhead stays flat: the median turn time of turns 500-1000 over that of turns 50-100 under
 *    1.5 (medians: a turn takes tens of microseconds, so one GC pause or a busy neighbour on a shared
 *    machine would swing a mean; the means are printed too);
 *  - peak memory (RSS) under 200 MiB;
 *  - between compactions every request's message list extends the previous request's unchanged
 *    (the share of turns where that holds; goal 100%).
 * Exits 1 when a check fails.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { runAgent } from "../src/agents/loop/run-loop.ts";
import { defineSpec } from "../src/agents/spec/spec.ts";
import type { AgentEvent, Message, ModelRequest } from "../src/kernel/index.ts";
import { Workspace } from "../src/tools/workspace.ts";
import { scriptedProvider } from "../test/support/scripted-provider.ts";
import { allowAll, benchModelInfo, ref, toolsFor } from "./support.ts";

const TURNS = 1000;
const CONTEXT_WINDOW = 100_000;
/** Reported input tokens per message sent: the window's 80% is reached at 80 messages. */
const TOKENS_PER_MESSAGE = 1000;
const SUMMARY = "## Goal\nbench\n## Decisions\nnone\n## Files touched\nnone\n## Open threads\nnone";

const root = defineSpec({
  name: "root",
  description: "bench root",
  system_prompt: "agent:root;",
  model: "good",
  capabilities: ["glob"],
  constraints: {
    max_turns: TURNS + 10,
    max_depth: 0,
    timeout_ms: 600_000,
    can_spawn: false,
    can_learn: false,
  },
});

/** True when `next` starts with every message of `previous`, unchanged. */
function extendsPrevious(previous: readonly Message[], next: readonly Message[]): boolean {
  if (next.length < previous.length) return false;
  for (let i = 0; i < previous.length; i++) {
    if (previous[i] !== next[i] && JSON.stringify(previous[i]) !== JSON.stringify(next[i])) return false;
  }
  return true;
}

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), "agent-bench-compaction-"));
  const workspace = await Workspace.open(dir);
  let peakRss = process.memoryUsage().rss;
  const turnEnds: number[] = [];
  /** Root request index at each compaction (the request after it is the first compacted one). */
  const compactedBefore = new Set<number>();
  let rootRequests = 0;
  let previous: readonly Message[] | undefined;
  let extended = 0;
  let comparable = 0;

  const provider = scriptedProvider({
    agents: { "You compact the earlier part": Array.from({ length: TURNS }, () => ({ text: SUMMARY })) },
    fallback: (request: ModelRequest, index: number) => {
      turnEnds.push(performance.now());
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
      const n = rootRequests++;
      if (previous && !compactedBefore.has(n)) {
        comparable++;
        if (extendsPrevious(previous, request.messages)) extended++;
      }
      previous = request.messages;
      const usage = { inputTokens: request.messages.length * TOKENS_PER_MESSAGE };
      return n < TURNS - 1
        ? { toolCalls: [{ name: "glob", arguments: { pattern: `p${index}` } }], usage }
        : { text: "done", usage };
    },
  });
  const emit = (event: AgentEvent): void => {
    if (event.kind === "compaction") compactedBefore.add(rootRequests);
  };
  const started = performance.now();
  const result = await runAgent({
    spec: root,
    goal: "bench a long session",
    specs: new Map([[root.name, root]]),
    emit,
    stream: provider.stream,
    resolveModel: ref,
    modelInfo: benchModelInfo(CONTEXT_WINDOW),
    workspace,
    gate: allowAll,
    toolsFor,
    learnFile: null,
  });
  const totalMs = performance.now() - started;
  await rm(dir, { recursive: true, force: true });
  if (result.finishReason !== "stop" || rootRequests !== TURNS) {
    throw new Error(`bad run: ${result.finishReason} after ${rootRequests} turns`);
  }

  const turnMs = turnEnds.slice(1).map((end, i) => end - (turnEnds[i] as number));
  const window = (from: number, to: number): number[] => turnMs.slice(from - 1, to - 1);
  const mean = (values: number[]): number => values.reduce((a, b) => a + b, 0) / values.length;
  const median = (values: number[]): number => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)] ?? 0;
  };
  const early = median(window(50, 100));
  const late = median(window(500, 1000));
  const ratio = late / early;
  const peakMiB = peakRss / (1024 * 1024);
  const share = comparable > 0 ? extended / comparable : 1;
  const checks = [ratio < 1.5, peakMiB < 200, share === 1];

  console.log(
    `compaction bench: ${TURNS} turns in ${totalMs.toFixed(0)} ms, ${compactedBefore.size} compactions`,
  );
  console.log(`  turns 50-100:   median ${early.toFixed(3)} ms, mean ${mean(window(50, 100)).toFixed(3)} ms`);
  console.log(
    `  turns 500-1000: median ${late.toFixed(3)} ms, mean ${mean(window(500, 1000)).toFixed(3)} ms`,
  );
  console.log(`  ratio: ${ratio.toFixed(2)} (must be under 1.5) ${checks[0] ? "ok" : "FAIL"}`);
  console.log(`  peak RSS: ${peakMiB.toFixed(1)} MiB (must be under 200) ${checks[1] ? "ok" : "FAIL"}`);
  console.log(
    `  requests extending the previous one between compactions: ${extended}/${comparable} ` +
      `(${(share * 100).toFixed(1)}%, goal 100%) ${checks[2] ? "ok" : "FAIL"}`,
  );
  if (checks.includes(false)) process.exit(1);
}

await main();
