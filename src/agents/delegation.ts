import {
  type AgentIdentity,
  type ApprovalNeededError,
  type EmitFn,
  makeEvent,
  type RunResult,
  type ToolDefinition,
} from "../kernel/index.ts";
import type { ActContext, DelegationResult } from "./act.ts";
import { type AgentSpec, agentCapabilities } from "./spec.ts";

/**
 * Delegation: sub-agents offered as tools (`{goal, hints?}`), child identities, and what the parent's
 * model receives back from a child run.
 */

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

/** Runs a child agent (run-agent.ts supplies it, so this module never imports the loop). */
export type ChildRunner = (
  spec: AgentSpec,
  goal: string,
  hints: string[],
  child: AgentIdentity,
  depthBound: number,
) => Promise<{ result: RunResult; approvalError?: ApprovalNeededError }>;

/**
 * The delegate function Act calls for a sub-agent tool: allocates the child's id, emits act_start and
 * act_end around the child run, and returns the child's answer (with its status when it failed).
 * An approval error in the child (`--on-ask fail`) is rethrown so the whole session ends.
 */
export function makeDelegate(options: {
  who: AgentIdentity;
  emit: EmitFn;
  specs: ReadonlyMap<string, AgentSpec>;
  counters: ChildCounters;
  depthBound: number;
  runChild: ChildRunner;
}): ActContext["delegate"] {
  const { who, emit } = options;
  return async (childName, goal, hints, callId) => {
    const childSpec = options.specs.get(childName);
    const child = childIdentity(who, childName, options.counters);
    emit(makeEvent(who, "act_start", { id: callId, child: child.agent, childName, goal }));
    const outcome = childSpec
      ? await options.runChild(
          childSpec,
          goal,
          hints,
          child,
          Math.min(options.depthBound, child.depth + childSpec.constraints.max_depth),
        )
      : undefined;
    const result: RunResult = outcome?.result ?? {
      status: "error",
      finishReason: "error",
      answer: "",
      usage: [],
      error: { kind: "config", message: `unknown agent ${childName}` },
    };
    emit(
      makeEvent(who, "act_end", {
        id: callId,
        child: child.agent,
        childName,
        status: result.status,
        finishReason: result.finishReason,
        answer: result.answer,
      }),
    );
    if (outcome?.approvalError) throw outcome.approvalError;
    return delegationResult(childName, result);
  };
}
