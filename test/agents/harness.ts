import { expect } from "bun:test";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { runAgent } from "../../src/agents/loop/run-loop.ts";
import { type AgentSpec, defineSpec } from "../../src/agents/spec/spec.ts";
import type { RunAgentOptions, ToolGate } from "../../src/agents/types.ts";
import type {
  AgentEvent,
  Approver,
  EventKind,
  Message,
  ModelInfo,
  ModelRef,
  RunResult,
} from "../../src/kernel/index.ts";
import { flagApprover } from "../../src/policy/approvers.ts";
import { ApprovalGate } from "../../src/policy/gate.ts";
import { buildRuleSet } from "../../src/policy/rules.ts";
import { Workspace } from "../../src/tools/workspace.ts";
import { type ScriptOptions, scriptedProvider } from "../support/scripted-provider.ts";

/** Test wiring for the loop: a real temp workspace, the real gate, a scripted provider. */

/** A spec whose system prompt routes scripted turns: `agent:NAME;`. */
export function spec(name: string, capabilities: string[], extra: Partial<AgentSpec> = {}): AgentSpec {
  return defineSpec({
    name,
    description: `the ${name} agent`,
    system_prompt: `agent:${name}; do ${name} things`,
    model: "fast",
    capabilities,
    ...extra,
  });
}

export interface HarnessOptions {
  specs: AgentSpec[];
  script: ScriptOptions;
  approver?: Approver;
  allow?: string[];
  deny?: string[];
  contextWindow?: number;
  /** USD per million tokens, input and output. */
  price?: number;
}

export interface Harness {
  dir: string;
  workspace: Workspace;
  events: AgentEvent[];
  provider: ReturnType<typeof scriptedProvider>;
  gate: ToolGate;
  run(goal: string, overrides?: Partial<RunAgentOptions>): Promise<RunResult>;
  of<K extends EventKind>(kind: K): AgentEvent<K>[];
  cleanup(): Promise<void>;
}

export function modelRef(name: string): ModelRef {
  return { provider: "anthropic", providerName: "anthropic", id: `test-${name}` };
}

export async function harness(options: HarnessOptions): Promise<Harness> {
  const dir = await mkdtemp(path.join(tmpdir(), "agent-loop-"));
  const workspace = await Workspace.open(dir);
  const events: AgentEvent[] = [];
  const emit = (e: AgentEvent): void => {
    events.push(e);
  };
  const gate = new ApprovalGate({
    rules: buildRuleSet({ flags: { allow: options.allow ?? [], deny: options.deny ?? [] } }),
    approver: options.approver ?? flagApprover("allow"),
    emit,
  });
  const provider = scriptedProvider(options.script);
  const specs = new Map(options.specs.map((s) => [s.name, s]));
  const info = (ref: ModelRef): ModelInfo => ({
    id: ref.id,
    provider: ref.provider,
    contextWindow: options.contextWindow ?? 200_000,
    maxOutputTokens: 8192,
    price: { input: options.price ?? 1, output: options.price ?? 1, cacheRead: 0, cacheWrite: 0 },
    known: true,
  });
  return {
    dir,
    workspace,
    events,
    provider,
    gate,
    run: (goal, overrides = {}) =>
      runAgent({
        spec: options.specs[0] as AgentSpec,
        goal,
        specs,
        emit,
        stream: provider.stream,
        resolveModel: modelRef,
        modelInfo: info,
        workspace,
        gate,
        learnFile: path.join(dir, ".state", "learn.jsonl"),
        sessionId: "test-session",
        ...overrides,
      }),
    of: <K extends EventKind>(kind: K) => events.filter((e) => e.kind === kind) as AgentEvent<K>[],
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

/** The tool result messages the model was sent in request `index`. */
export function toolResultsIn(
  h: Harness,
  index: number,
): { toolName: string; content: string; isError: boolean }[] {
  const request = h.provider.requests[index]?.request;
  const out: { toolName: string; content: string; isError: boolean }[] = [];
  for (const m of request?.messages ?? []) if (m.role === "tool") out.push(m);
  return out;
}

/** Every tool call in `messages` is immediately followed (within its results block) by its result. */
export function assertNoOrphans(messages: Message[]): void {
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (m?.role !== "assistant") continue;
    const ids = m.parts.flatMap((p) => (p.type === "tool_call" ? [p.id] : []));
    const following: string[] = [];
    for (let j = i + 1; j < messages.length && messages[j]?.role === "tool"; j++) {
      const t = messages[j];
      if (t?.role === "tool") following.push(t.toolCallId);
    }
    expect(following).toEqual(ids);
  }
}
