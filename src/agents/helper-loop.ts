import type { EmitFn, ModelInfo, ModelRef, RunResult, StreamFn } from "../kernel/index.ts";
import type { Rule } from "../policy/index.ts";
import type { PrimitiveName } from "../tools/types.ts";
import type { Workspace } from "../tools/workspace.ts";
import { whitelistGate } from "./helper-gate.ts";
import type { ToolHooks } from "./hooks/hooks.ts";
import type { OutputSchema } from "./loop/output-schema.ts";
import { runAgent } from "./loop/run-loop.ts";
import { type AgentSpec, defineSpec } from "./spec/spec.ts";
import type { ToolsFor } from "./types.ts";

export { whitelistGate } from "./helper-gate.ts";

/**
 * Helper runs (`agent helper --tools a,b`): the loop as a single agent with exactly the listed
 * primitives and nobody to ask. The whitelist is the approval: listed tools run, anything else is
 * refused to the model as an error result. Two things a listing never approves: a call a deny rule of
 * the user's or the project's config refuses (a deny must be hard to dodge), and a change to git
 * metadata or the agent's own config (a sensitive target asks even under a broad rule, and a helper
 * has nobody to ask).
 */

/** The system prompt of a helper run when none is given. */
export const HELPER_SYSTEM =
  "You are a helpful assistant working in the user's workspace. Use the tools you are given only when " +
  "they help answer; when you have the answer, reply with it directly and without tool calls. " +
  "Reply with the answer only: no preamble, no commentary about your process.";

export interface HelperOptions {
  prompt: string;
  system?: string;
  /** The only primitives offered; calls to them are approved by being listed. */
  tools: PrimitiveName[];
  /** The user's and the project's rules: their deny rules refuse a listed tool's call all the same. */
  rules?: readonly Rule[];
  /** Tier (`fast`, `good`, `best`, `auto`), `provider:model` or id. */
  model: string;
  stream: StreamFn;
  resolveModel: (name: string) => ModelRef;
  modelInfo: (ref: ModelRef) => ModelInfo;
  workspace: Workspace;
  emit?: EmitFn;
  signal?: AbortSignal;
  maxTurns?: number;
  timeoutMs?: number;
  /** Budgets of the whole helper run (both attempts when a stall escalates). */
  tokenBudget?: number;
  costBudgetUsd?: number;
  /** `--schema`: the JSON schema the answer must match. */
  outputSchema?: OutputSchema;
  toolsFor?: ToolsFor;
  /** Retry once with the next tier when the run stalls (default true). */
  escalate?: boolean;
  sessionId?: string;
  /** The user's hooks (and a trusted project's) around the listed tools' calls. */
  hooks?: ToolHooks;
}

export interface HelperResult extends RunResult {
  /** The model id of the run that produced the answer. */
  model: string;
  /** The provider instance name of that model. */
  provider: string;
}

/** The one agent of a helper run: the listed primitives, no sub-agents, no learning. */
export function helperSpec(
  options: Pick<HelperOptions, "system" | "model" | "tools" | "maxTurns" | "timeoutMs">,
): AgentSpec {
  return defineSpec({
    name: "helper",
    description: "A single-agent helper run",
    system_prompt: options.system ?? HELPER_SYSTEM,
    model: options.model,
    capabilities: [...options.tools],
    constraints: {
      max_turns: options.maxTurns ?? 10,
      max_depth: 0,
      timeout_ms: options.timeoutMs ?? 300_000,
      can_spawn: false,
      can_learn: false,
    },
  });
}

/**
 * Runs a helper. A stall on a tier escalates once to the next tier within the same run, the
 * conversation kept (runAgent's `escalate`; a model_switch event).
 */
export async function runHelper(options: HelperOptions): Promise<HelperResult> {
  const spec = helperSpec(options);
  let ref: ModelRef | undefined;
  // One run: an escalation continues it, so the budgets count both tiers' spending from the same counters.
  const limits: { tokenBudget?: number; costBudgetUsd?: number } = {};
  if (options.tokenBudget !== undefined) limits.tokenBudget = options.tokenBudget;
  if (options.costBudgetUsd !== undefined) limits.costBudgetUsd = options.costBudgetUsd;
  const result = await runAgent({
    spec,
    goal: options.prompt,
    specs: new Map([[spec.name, spec]]),
    emit: options.emit ?? (() => {}),
    stream: options.stream,
    resolveModel: (name) => {
      ref = options.resolveModel(name);
      return ref;
    },
    modelInfo: options.modelInfo,
    workspace: options.workspace,
    gate: whitelistGate(options.tools, options.rules),
    learnFile: null,
    limits,
    escalate: options.escalate !== false,
    ...(options.outputSchema ? { outputSchema: options.outputSchema } : {}),
    ...(options.toolsFor ? { toolsFor: options.toolsFor } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.sessionId ? { sessionId: options.sessionId } : {}),
    ...(options.hooks ? { hooks: options.hooks } : {}),
  });
  return { ...result, model: ref?.id ?? options.model, provider: ref?.providerName ?? "" };
}
