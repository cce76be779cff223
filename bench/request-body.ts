/**
 * The request path of each adapter as a session grows (run: `bun bench/request-body.ts`): in one process,
 * the adapter's stream function sends a history that grows by one tool round per turn to the project's
 * fake server on 127.0.0.1, and the time from the call to the request's arrival at the server is the
 * agent's cost of building and sending the request (conversion, serialization, the SDK, fetch). Printed
 * per adapter and build: the median over turns 50-100 and over the second half, and their ratio (1.0 is
 * flat). Each history has one character above U+00FF in its system prompt (`--ascii`: none), as real ones
 * often do (an em dash, an emoji in a file the model read).
 *
 *   bun bench/request-body.ts [--turns 1000] [--baseline OTHER_CHECKOUT]... [--ascii] [--repeat 3]
 *
 * `--repeat N` measures every adapter and build N times, alternating builds, and keeps each figure's lowest
 * value (the run a busy machine disturbed least); a 100-turn warm-up run of each goes first, unmeasured.
 * `--baseline` takes another checkout of the project (with its node_modules): its adapters run in the same
 * invocation, alternating, against the same server. Nothing here asserts a time.
 */
import { resolve } from "node:path";
import type { Message } from "../src/kernel/conversation/messages.ts";
import type { ModelRequest, StreamFn } from "../src/kernel/conversation/stream.ts";
import type { ProviderConfig } from "../src/llm/providers.ts";
import { startFakeLlmServer } from "../test/support/fake-llm-server.ts";
import { options, positiveInteger } from "./args.ts";

const TURNS = positiveInteger("--turns", 1000);
const ASCII = process.argv.includes("--ascii");
const REPEAT = positiveInteger("--repeat", 3);
const ROOTS = [resolve(import.meta.dir, ".."), ...options("--baseline").map((r) => resolve(r))];

let arrived = 0;
const server = await startFakeLlmServer({
  onRequest: (request) => {
    arrived = request.receivedAt;
    request.body = null; // only the timing is kept: a long session's bodies add up
  },
});

const ADAPTERS: {
  name: string;
  config: Omit<ProviderConfig, "apiKey" | "baseUrl">;
  model: string;
  base: string;
}[] = [
  {
    name: "anthropic",
    config: { kind: "anthropic", name: "anthropic" },
    model: "claude-haiku-4-5",
    base: server.anthropicBaseUrl,
  },
  {
    name: "openai responses",
    config: { kind: "openai", name: "openai", compatible: false },
    model: "gpt-5-mini",
    base: server.openaiBaseUrl,
  },
  {
    name: "openai-compatible chat",
    config: { kind: "openai", name: "ollama", compatible: true },
    model: "qwen3",
    base: server.openaiBaseUrl,
  },
];

const system = `You read data.txt in small ranges${ASCII ? "" : " — a few lines at a time"}. `.repeat(20);
const tools = [
  {
    name: "read_file",
    description: "Reads lines of a file in the workspace. ".repeat(8),
    parameters: {
      type: "object",
      properties: { path: { type: "string" }, offset: { type: "number" }, limit: { type: "number" } },
      required: ["path"],
    },
  },
];

/** Client-side ms per turn of one adapter of one checkout over a growing history. */
async function measure(root: string, adapter: (typeof ADAPTERS)[number], turns = TURNS): Promise<number[]> {
  const { createProviderStream } = (await import(`${root}/src/llm/providers.ts`)) as {
    createProviderStream: (config: ProviderConfig) => StreamFn;
  };
  const stream = createProviderStream({
    ...adapter.config,
    apiKey: "sk-bench-0000000000000000",
    baseUrl: adapter.base,
  } as ProviderConfig);
  const messages: Message[] = [{ role: "user", content: "Read data.txt" }];
  const times: number[] = [];
  for (let turn = 1; turn <= turns; turn++) {
    server.enqueue({ text: "ok" });
    const request: ModelRequest = {
      model: { provider: adapter.config.kind, providerName: adapter.config.name, id: adapter.model },
      system,
      messages,
      tools,
    };
    const started = performance.now();
    for await (const event of stream(request))
      if (event.type === "error") throw new Error(`${adapter.name}: ${event.error.message}`);
    times.push(arrived - started);
    const id = `call_${String(turn).padStart(8, "0")}`;
    messages.push(
      {
        role: "assistant",
        parts: [
          {
            type: "tool_call",
            id,
            name: "read_file",
            arguments: { path: "data.txt", offset: turn, limit: 3 },
          },
        ],
      },
      {
        role: "tool",
        toolCallId: id,
        toolName: "read_file",
        isError: false,
        content: `line ${turn}: the quick brown fox ${turn * 7}\nline ${turn + 1}: jumps over\nline ${turn + 2}: the lazy dog`,
      },
    );
  }
  return times;
}

function median(values: number[]): number {
  const sorted = values.slice().sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

console.log(
  `request path, ${TURNS} turns, one adapter call per turn, ${ASCII ? "ASCII" : "one em dash in the"} system prompt; Bun ${Bun.version}`,
);
console.log(
  `${"adapter".padEnd(24)}${"build".padEnd(40)}${"ms 50-100".padStart(10)}${"ms 2nd half".padStart(12)}${"ratio".padStart(7)}`,
);
for (const adapter of ADAPTERS) {
  const best = new Map<string, { early: number; late: number }>();
  for (const root of ROOTS) await measure(root, adapter, 100); // warm-up: JIT tiers, SDK loading
  for (let round = 0; round < REPEAT; round++) {
    for (const root of ROOTS) {
      const times = await measure(root, adapter);
      const early = median(times.slice(49, 100));
      const late = median(times.slice(Math.floor(times.length / 2)));
      const kept = best.get(root);
      best.set(root, {
        early: Math.min(early, kept?.early ?? early),
        late: Math.min(late, kept?.late ?? late),
      });
    }
  }
  for (const [root, { early, late }] of best) {
    console.log(
      `${adapter.name.padEnd(24)}${root.slice(-39).padEnd(40)}${early.toFixed(3).padStart(10)}${late.toFixed(3).padStart(12)}${(late / early).toFixed(2).padStart(7)}`,
    );
  }
}
await server.close();
