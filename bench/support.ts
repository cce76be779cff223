/** Pieces the loop benchmarks share: an allow-all gate, a no-op tool, bench model refs and infos. */
import type { ToolGate, ToolsFor } from "../src/agents/types.ts";
import type { ModelInfo, ModelRef } from "../src/kernel/index.ts";
import type { Primitive } from "../src/tools/types.ts";

export const allowAll: ToolGate = {
  check: async () => ({ allowed: true, verdict: { effect: "allow", reason: "bench" } }),
};

/** A read-only no-op tool, so the figures measure the loop and not a primitive. */
export const noop: Primitive = {
  name: "glob",
  description: "no-op",
  parameters: { type: "object", properties: { pattern: { type: "string" } } },
  readOnly: true,
  validate: (args) => ({ ok: true, value: args as Record<string, unknown> }),
  policyTarget: async () => ({ targets: [], sensitive: false }),
  preview: async () => "",
  run: async (args) => ({
    modelText: `ok ${String(args.pattern ?? args.path)}`,
    display: "ok",
    isError: false,
  }),
};

export const toolsFor: ToolsFor = () => ({
  definitions: [{ name: noop.name, description: noop.description, parameters: noop.parameters }],
  primitives: new Map([[noop.name, noop]]),
});

/** `bench-<name>` on the anthropic provider: a tier name resolves to its own id. */
export const ref = (name: string): ModelRef => ({
  provider: "anthropic",
  providerName: "anthropic",
  id: `bench-${name}`,
});

/** Model info with the given context window and a price of 1 USD per million tokens. */
export function benchModelInfo(contextWindow: number): (r: ModelRef) => ModelInfo {
  return (r) => ({
    id: r.id,
    provider: r.provider,
    contextWindow,
    maxOutputTokens: 8192,
    price: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 },
    known: true,
  });
}
