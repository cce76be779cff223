/**
 * Agent-loop benchmarks (run: `bun bench/loop.ts`).
 * 1. Orchestration overhead per model turn with a zero-latency scripted model and a no-op tool,
 *    for 10, 50 and 200 turns: must stay under 5 ms per turn and flat as the history grows.
 * 2. Four delegations in one response, each child's model taking 1 s: total under 1.2x one child.
 * 3. Per wire path (Anthropic Messages, OpenAI Responses): a four-tool leaf run whose every request is also
 *    converted to the provider's JSON body (as the SDK sends it), so the figure includes the adapter's
 *    request building as history grows; and the bytes of the first request.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { runAgent } from "../src/agents/loop/run-loop.ts";
import { type AgentSpec, defineSpec } from "../src/agents/spec/spec.ts";
import type { ToolsFor } from "../src/agents/types.ts";
import { type ModelRef, modelFamily, type RunResult, type StreamFn } from "../src/kernel/index.ts";
import { buildRequest as anthropicBody } from "../src/llm/adapters/anthropic-convert.ts";
import { buildResponsesRequest } from "../src/llm/adapters/openai-responses-convert.ts";
import { toolDefinitionsFor } from "../src/tools/registry.ts";
import { Workspace } from "../src/tools/workspace.ts";
import { type ScriptOptions, scriptedProvider } from "../test/support/scripted-provider.ts";
import { allowAll, benchModelInfo, noop, ref, toolsFor } from "./support.ts";

const info = benchModelInfo(1_000_000);

function spec(name: string, capabilities: string[]): AgentSpec {
  return defineSpec({
    name,
    description: `${name} agent`,
    system_prompt: `agent:${name};`,
    model: "fast",
    capabilities,
    constraints: { max_turns: 1000, max_depth: 2, timeout_ms: 600_000, can_spawn: true, can_learn: false },
  });
}

interface RunSetup {
  /** Wraps the scripted stream (e.g. to convert each request to a wire body). */
  wrap?: (inner: StreamFn) => StreamFn;
  resolveModel?: (name: string) => ModelRef;
  toolsFor?: ToolsFor;
}

async function run(
  root: AgentSpec,
  specs: AgentSpec[],
  script: ScriptOptions,
  workspace: Workspace,
  setup: RunSetup = {},
) {
  const provider = scriptedProvider(script);
  const started = performance.now();
  const result: RunResult = await runAgent({
    spec: root,
    goal: "bench",
    specs: new Map(specs.map((s) => [s.name, s])),
    emit: () => {},
    stream: setup.wrap ? setup.wrap(provider.stream) : provider.stream,
    resolveModel: setup.resolveModel ?? ref,
    modelInfo: info,
    workspace,
    gate: allowAll,
    toolsFor: setup.toolsFor ?? toolsFor,
    learnFile: null,
  });
  return { ms: performance.now() - started, result, requests: provider.requests.length };
}

/** Total milliseconds of an n-turn run (n - 1 tool-calling turns, then an answer). */
async function turns(n: number, workspace: Workspace, setup: RunSetup = {}, tool = "glob"): Promise<number> {
  const root = spec("root", setup.toolsFor ? ["read_file", "write_file", "edit_file", "exec"] : ["glob"]);
  const script: ScriptOptions = {
    fallback: (_req, i) =>
      i < n - 1 ? { toolCalls: [{ name: tool, arguments: { path: `p${i}` } }] } : { text: "done" },
  };
  const { ms, result, requests } = await run(root, [root], script, workspace, setup);
  if (result.finishReason !== "stop" || requests !== n)
    throw new Error(`bad run: ${result.finishReason} ${requests}`);
  return ms;
}

const SAMPLES = 21;

async function median(n: number, workspace: Workspace, setup: RunSetup = {}, tool = "glob"): Promise<number> {
  // Runs of a few hundred microseconds: collect garbage first so a GC pause does not land inside a sample.
  const samples: number[] = [];
  for (let k = 0; k < SAMPLES; k++) {
    Bun.gc(true);
    samples.push(await turns(n, workspace, setup, tool));
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(SAMPLES / 2)] ?? 0;
}

/** A four-tool leaf (read_file, write_file, edit_file, exec as the model's family is offered them) whose
 * tools all run as the no-op, and whose every request is converted to the wire body of `path`. */
function wirePath(path: "anthropic" | "openai-responses"): { setup: RunSetup; firstBytes: () => number } {
  const model: ModelRef =
    path === "anthropic"
      ? { provider: "anthropic", providerName: "anthropic", id: "claude-haiku-5-5" }
      : { provider: "openai", providerName: "openai", id: "gpt-6-luna" };
  const convert = path === "anthropic" ? anthropicBody : buildResponsesRequest;
  let first = 0;
  const setup: RunSetup = {
    resolveModel: () => model,
    toolsFor: (names, family) => {
      const { definitions } = toolDefinitionsFor(names, family);
      return { definitions, primitives: new Map(definitions.map((d) => [d.name, noop])) };
    },
    wrap: (inner) => (request) => {
      const bytes = JSON.stringify(convert(request)).length;
      if (first === 0) first = bytes;
      return inner(request);
    },
  };
  return { setup, firstBytes: () => first };
}

async function wirePathFigures(workspace: Workspace): Promise<boolean> {
  console.log("\nWire paths: four-tool leaf run, each request converted to the provider's JSON body");
  console.log(
    "path                   | first request bytes | ms/turn at 10 | at 50 | at 200 | 200 vs 10 | marginal 51-200 vs 11-50 | budget 5 ms",
  );
  let ok = true;
  for (const path of ["anthropic", "openai-responses"] as const) {
    const { setup, firstBytes } = wirePath(path);
    for (let k = 0; k < 2; k++) await turns(200, workspace, setup, "read_file");
    const totals = [];
    for (const n of [10, 50, 200]) totals.push(await median(n, workspace, setup, "read_file"));
    const [t10 = 0, t50 = 0, t200 = 0] = totals;
    // Every request carries the whole history, so converting and serializing it costs time linear in the
    // history by nature (about 0.05 ms more per turn at 200 turns than at 10 on our machines): the growth
    // ratios are shown for the reader; the budget checked is the 5 ms per turn. The loop's own overhead
    // (first table) is the one held flat.
    const growth = (t200 - t50) / 150 / ((t50 - t10) / 40);
    const perTurn = [t10 / 10, t50 / 50, t200 / 200];
    const flat = (perTurn[2] ?? 0) / (perTurn[0] ?? 1);
    const pathOk = perTurn.every((v) => v < 5);
    ok &&= pathOk;
    const family = modelFamily(setup.resolveModel?.("fast") ?? ref("x"));
    console.log(
      `${`${path} (${family})`.padEnd(22)} | ${String(firstBytes()).padStart(19)} | ${perTurn.map((v) => v.toFixed(3)).join(" | ")} | ${flat.toFixed(2).padStart(9)} | ${growth.toFixed(2).padStart(24)} | ${pathOk ? "ok" : "OVER"}`,
    );
  }
  return ok;
}

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), "agent-bench-"));
  const workspace = await Workspace.open(dir);
  try {
    for (let k = 0; k < 3; k++) await turns(200, workspace); // warm-up (JIT, module loading)
    const fixed = await median(1, workspace);
    const sizes = [10, 50, 200];
    const perTurn: number[] = [];
    const marginal: number[] = [];
    for (const n of sizes) {
      const total = await median(n, workspace);
      perTurn.push(total / n);
      marginal.push((total - fixed) / (n - 1));
    }
    const base = perTurn[0] ?? 1;
    const baseMarginal = marginal[0] ?? 1;
    console.log(
      `Orchestration overhead per model turn (zero-latency scripted model, no-op tool, median of ${SAMPLES})`,
    );
    console.log(`one-turn run (fixed per-run cost): ${fixed.toFixed(3)} ms`);
    console.log("turns | ms/turn | ratio vs 10 | marginal ms/turn | ratio vs 10 | budget 5 ms");
    sizes.forEach((n, i) => {
      const v = perTurn[i] ?? 0;
      const m = marginal[i] ?? 0;
      console.log(
        `${String(n).padStart(5)} | ${v.toFixed(3).padStart(7)} | ${(v / base).toFixed(2).padStart(11)} | ${m.toFixed(3).padStart(16)} | ${(m / baseMarginal).toFixed(2).padStart(11)} | ${v < 5 ? "ok" : "OVER"}`,
      );
    });

    const child = spec("worker", []);
    const root = spec("root", ["worker"]);
    const oneChild = await run(child, [child], { queue: [{ text: "child done", delayMs: 1000 }] }, workspace);
    const four = await run(
      root,
      [root, child],
      {
        agents: {
          "agent:root;": [
            { toolCalls: [1, 2, 3, 4].map((i) => ({ name: "worker", arguments: { goal: `job ${i}` } })) },
            { text: "all done" },
          ],
          "agent:worker;": [1, 2, 3, 4].map(() => ({ text: "child done", delayMs: 1000 })),
        },
      },
      workspace,
    );
    const ratio = four.ms / oneChild.ms;
    console.log("\nParallel delegation (each child's model takes 1 s)");
    console.log("case                  | total ms | ratio vs one child | budget 1.2x");
    console.log(`one child             | ${oneChild.ms.toFixed(0).padStart(8)} | ${"1.00".padStart(18)} |`);
    console.log(
      `4 delegations at once | ${four.ms.toFixed(0).padStart(8)} | ${ratio.toFixed(2).padStart(18)} | ${ratio < 1.2 ? "ok" : "OVER"}`,
    );
    // Growth with history: the cost per turn of turns 51-200 against that of turns 11-50. Both spans are
    // long, so fixed per-run noise cancels; a loop whose turns got slower as history grew shows a ratio > 1.
    const [t10 = 0, t50 = 0, t200 = 0] = sizes.map((n, i) => (perTurn[i] ?? 0) * n);
    const early = (t50 - t10) / 40;
    const late = (t200 - t50) / 150;
    const growth = late / early;
    console.log(
      `\nper-turn cost of turns 11-50: ${early.toFixed(3)} ms; of turns 51-200: ${late.toFixed(3)} ms; ` +
        `ratio ${growth.toFixed(2)} (flat when near 1, budget < 2)`,
    );
    const wireOk = await wirePathFigures(workspace);
    const ok = perTurn.every((v) => v < 5) && ratio < 1.2 && growth < 2 && wireOk;
    console.log(ok ? "all budgets met" : "BUDGET MISSED");
    if (!ok) process.exitCode = 1;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
