import {
  type AgentIdentity,
  type EmitFn,
  makeEvent,
  type RunResult,
  type ToolDefinition,
} from "../../kernel/index.ts";
import type { Tool, ToolRunOutput, ValidationResult } from "../../tools/types.ts";
import { type AgentSpec, agentCapabilities } from "../spec/spec.ts";

/**
 * Delegation: sub-agents offered as tools (`{goal, hints?}`) that go through the same pipeline as every
 * other tool, child identities, and what the parent's model receives back from a child run.
 */

/** What a delegation returns to the parent's model. */
export interface DelegationResult {
  content: string;
  isError: boolean;
}

/** The parameter schema of every sub-agent tool. */
export const SUB_AGENT_PARAMETERS = {
  type: "object",
  properties: {
    goal: {
      type: "string",
      description:
        "What the sub-agent must achieve, self-contained: it sees nothing of your conversation. Name files, commands and the expected result.",
    },
    hints: {
      type: "array",
      items: { type: "string" },
      description:
        "Optional facts that save the sub-agent time (paths, conventions, what was already tried).",
    },
  },
  required: ["goal"],
  additionalProperties: false,
};

/**
 * Tool definitions for the agents a spec may delegate to. Every agent capability must name a known
 * spec (the loader guarantees it for files); a missing one is reported, never silently dropped.
 */
export function subAgentDefinitions(
  spec: AgentSpec,
  specs: ReadonlyMap<string, AgentSpec>,
): { definitions: ToolDefinition[]; missing: string[] } {
  const definitions: ToolDefinition[] = [];
  const missing: string[] = [];
  for (const name of agentCapabilities(spec)) {
    const child = specs.get(name);
    if (!child) missing.push(name);
    else definitions.push({ name, description: child.description, parameters: SUB_AGENT_PARAMETERS });
  }
  return { definitions, missing };
}

/** Per-session counters for child ids (one map per session, passed down; never module state). */
export type ChildCounters = Map<string, number>;

/** The identity of a new child: `root/code-editor#1`, `root/code-editor#2`, ... unique in the session. */
export function childIdentity(
  parent: AgentIdentity,
  childName: string,
  counters: ChildCounters,
): AgentIdentity {
  const key = `${parent.agent}/${childName}`;
  const n = (counters.get(key) ?? 0) + 1;
  counters.set(key, n);
  return { agent: `${key}#${n}`, name: childName, parent: parent.agent, depth: parent.depth + 1 };
}

/** What the parent's model sees: the child's answer, with its status when the child did not succeed. */
export function delegationResult(childName: string, result: RunResult): DelegationResult {
  const answer = result.answer.trim() || "(no answer)";
  if (result.status === "success") return { content: answer, isError: false };
  const why = result.error ? `: ${result.error.message}` : "";
  return {
    content:
      `[${childName} did not finish: status ${result.status}, finish reason ${result.finishReason}${why}]\n` +
      `Its last answer:\n${answer}`,
    isError: true,
  };
}

/** Runs a child agent (setup.ts supplies it, so this module never imports the loop). */
export type ChildRunner = (
  spec: AgentSpec,
  goal: string,
  hints: string[],
  child: AgentIdentity,
  depthBound: number,
) => Promise<{ result: RunResult; stop?: string }>;

export interface DelegationContext {
  who: AgentIdentity;
  emit: EmitFn;
  specs: ReadonlyMap<string, AgentSpec>;
  counters: ChildCounters;
  depthBound: number;
  runChild: ChildRunner;
}

interface DelegationArgs {
  goal: string;
  hints: string[];
}

function validateDelegation(name: string, args: unknown): ValidationResult<DelegationArgs> {
  const fail = (why: string) => ({ ok: false as const, error: `invalid arguments for ${name}: ${why}` });
  const record = (args ?? {}) as Record<string, unknown>;
  const goal = record.goal;
  if (typeof goal !== "string" || goal.trim() === "") return fail("`goal` must be a non-empty string");
  const hints = record.hints ?? [];
  if (!Array.isArray(hints) || !hints.every((h) => typeof h === "string")) {
    return fail("`hints` must be a list of strings when given");
  }
  return { ok: true, value: { goal, hints: hints as string[] } };
}

/**
 * The sub-agent a spec may delegate to, as a tool: concurrent, counted as mutating (its children may
 * write), allowed by default (each call the child makes is gated; deny and ask rules naming the agent
 * apply). Running it allocates the child's id, emits act_start and act_end around the child run, and
 * returns the child's answer (with its status when it failed); a child that must stop the session
 * (`--on-ask fail`) passes that on.
 */
export function subAgentTool(definition: ToolDefinition, ctx: DelegationContext): Tool<DelegationArgs> {
  const name = definition.name;
  return {
    ...definition,
    kind: "agent",
    readOnly: false,
    concurrent: true,
    policyName: name,
    allowByDefault: true,
    validate: (args) => validateDelegation(name, args),
    policyTarget: async () => ({ targets: [], sensitive: false }),
    label: (args) => args.goal,
    preview: async (args) => `delegate to ${name}: ${args.goal}`,
    execute: (args, toolCtx) => delegate(name, args, toolCtx.callId ?? name, ctx),
  };
}

async function delegate(
  childName: string,
  args: DelegationArgs,
  callId: string,
  ctx: DelegationContext,
): Promise<ToolRunOutput> {
  const { who, emit } = ctx;
  const childSpec = ctx.specs.get(childName);
  const child = childIdentity(who, childName, ctx.counters);
  emit(makeEvent(who, "act_start", { id: callId, child: child.agent, childName, goal: args.goal }));
  const outcome = childSpec
    ? await ctx.runChild(
        childSpec,
        args.goal,
        args.hints,
        child,
        Math.min(ctx.depthBound, child.depth + childSpec.constraints.max_depth),
      )
    : undefined;
  const result: RunResult = outcome?.result ?? {
    status: "error",
    finishReason: "error",
    answer: "",
    usage: [],
    error: { kind: "config", message: `unknown agent ${childName}` },
  };
  const { status, finishReason, answer } = result;
  emit(
    makeEvent(who, "act_end", { id: callId, child: child.agent, childName, status, finishReason, answer }),
  );
  const { content, isError } = delegationResult(childName, result);
  const display = `${childName}: ${status} (${finishReason})`;
  return {
    modelText: content,
    display,
    isError,
    ...(outcome?.stop !== undefined ? { stop: outcome.stop } : {}),
  };
}
