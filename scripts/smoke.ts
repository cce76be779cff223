/**
 * `bun run smoke`: a live check for users with keys. For each provider whose key is set (ANTHROPIC_API_KEY,
 * OPENAI_API_KEY, GEMINI_API_KEY or GOOGLE_API_KEY; base URL variables are honoured), on each tier (fast,
 * good, best): one plain helper answer, and one two-turn tool loop (read_file on a scratch file, then the
 * answer). Prints a table (provider, tier, model, check, result, tokens, cost) and exits 0 when every check
 * passed or no key is set, 1 when one failed. Each run stays on the tier's first model (no fallback), so a
 * failing default is reported, not hidden. Costs real money: a few small requests per tier.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runHelper } from "../src/agents/helper-loop.ts";
import { singleCall } from "../src/cli/helper/helper-call.ts";
import { emptyUsage, totalTokens, type Usage } from "../src/kernel/index.ts";
import { createModelClient } from "../src/llm/client.ts";
import { listEndpoints, NATIVE_PROVIDERS } from "../src/llm/endpoints.ts";
import { TIERS } from "../src/llm/resolve.ts";
import { Workspace } from "../src/tools/workspace.ts";

/** The word the tool loop must find in the scratch file. */
export const SMOKE_WORD = "marmalade";

interface Row {
  provider: string;
  tier: string;
  model: string;
  check: "answer" | "tool loop";
  ok: boolean;
  detail: string;
  usage: Usage;
  costUsd: number;
}

/** The environment with only one native provider's variables (so each tier resolves to it). */
function envFor(env: NodeJS.ProcessEnv, provider: (typeof NATIVE_PROVIDERS)[number]): Record<string, string> {
  const own = new Set([...provider.keyVars, provider.baseUrlVar]);
  const others = new Set(NATIVE_PROVIDERS.flatMap((p) => [...p.keyVars, p.baseUrlVar]));
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && (own.has(name) || !others.has(name))) out[name] = value;
  }
  return out;
}

async function checkTier(
  provider: (typeof NATIVE_PROVIDERS)[number],
  tier: string,
  workspace: Workspace,
): Promise<Row[]> {
  const client = await createModelClient({
    env: envFor(process.env, provider),
    workspaceRoot: workspace.root,
    fallback: false,
  });
  const ref = client.resolve(tier).ref;
  const base = { provider: provider.name, tier, model: ref.id };
  const signal = new AbortController().signal;
  const answer = await singleCall({
    client,
    ref,
    prompt: "Reply with the single word: pong",
    signal,
    timeoutMs: 120_000,
    onDelta: () => {},
    fellBackTo: () => undefined,
  });
  const loop = await runHelper({
    prompt: "Use read_file to read smoke.txt, then reply with the one word it contains and nothing else.",
    tools: ["read_file"],
    model: tier,
    stream: client.stream,
    resolveModel: (name) => client.resolve(name).ref,
    modelInfo: (r) => client.info(r),
    workspace,
    maxTurns: 4,
    timeoutMs: 180_000,
    escalate: false,
  });
  const root = loop.usage.find((r) => r.depth === 0);
  const found = loop.status === "success" && loop.answer.toLowerCase().includes(SMOKE_WORD);
  return [
    {
      ...base,
      check: "answer",
      ok: answer.status === "success" && answer.answer.trim() !== "",
      detail: answer.problem ?? answer.finishReason,
      usage: answer.usage,
      costUsd: answer.costUsd,
    },
    {
      ...base,
      check: "tool loop",
      ok: found,
      detail: found
        ? loop.finishReason
        : (loop.error?.message ?? `${loop.finishReason}: ${loop.answer.slice(0, 60)}`),
      usage: root?.subtree.usage ?? emptyUsage(),
      costUsd: root?.subtree.costUsd ?? 0,
    },
  ];
}

/** The rows as an aligned table. */
export function formatTable(rows: Row[]): string {
  const header = ["provider", "tier", "model", "check", "result", "tokens", "cost_usd"];
  const cells = rows.map((r) => [
    r.provider,
    r.tier,
    r.model,
    r.check,
    r.ok ? "ok" : `error: ${r.detail}`,
    String(totalTokens(r.usage)),
    r.costUsd.toFixed(6),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] ?? "").length)));
  const line = (c: string[]) =>
    c
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join("  ")
      .trimEnd();
  return `${[line(header), ...cells.map(line)].join("\n")}\n`;
}

async function main(): Promise<number> {
  const ready = NATIVE_PROVIDERS.filter(
    (p) => listEndpoints(process.env).find((e) => e.name === p.name)?.ready,
  );
  if (ready.length === 0) {
    const vars = NATIVE_PROVIDERS.map((p) => p.keyVars.join(" or ")).join(", ");
    process.stdout.write(`smoke: no provider key is set (${vars}); nothing to check.\n`);
    return 0;
  }
  const dir = await mkdtemp(join(tmpdir(), "agent-smoke-"));
  try {
    await writeFile(join(dir, "smoke.txt"), `${SMOKE_WORD}\n`);
    const workspace = await Workspace.open(dir);
    const rows: Row[] = [];
    for (const provider of ready) {
      for (const tier of TIERS) rows.push(...(await checkTier(provider, tier, workspace)));
    }
    process.stdout.write(formatTable(rows));
    const failed = rows.filter((r) => !r.ok).length;
    process.stdout.write(failed === 0 ? "smoke: all checks passed\n" : `smoke: ${failed} check(s) failed\n`);
    return failed === 0 ? 0 : 1;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) process.exit(await main());
