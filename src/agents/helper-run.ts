import {
  type AgentEvent,
  type AgentUsageReport,
  addUsage,
  type EmitFn,
  type Message,
  type ModelInfo,
  type ModelRef,
  makeEvent,
  type RunActivity,
  type RunResult,
  type StreamFn,
} from "../kernel/index.ts";
import type { PrimitiveName } from "../tools/types.ts";
import type { Workspace } from "../tools/workspace.ts";
import { resumeFrom } from "./resume.ts";
import { runAgent } from "./run-agent.ts";
import { type AgentSpec, defineSpec } from "./spec.ts";
import type { ToolGate, ToolsFor } from "./types.ts";

/**
 * Helper runs (`agent helper --tools a,b`): the loop as a single agent with exactly the listed
 * primitives and nobody to ask. The whitelist is the approval: listed tools run, anything else is
 * refused to the model as an error result.
 */

/** The system prompt of a helper run when none is given. */
export const HELPER_SYSTEM =
  "You are a helpful assistant working in the user's workspace. Use the tools you are given only when " +
  "they help answer; when you have the answer, reply with it directly and without tool calls. " +
  "Reply with the answer only: no preamble, no commentary about your process.";

/** The next tier a stalled helper may escalate to, once. */
const NEXT_TIER: Record<string, string> = { fast: "good", good: "best", auto: "good" };

export interface HelperOptions {
  prompt: string;
  system?: string;
  /** The only primitives offered; calls to them are approved by being listed. */
  tools: PrimitiveName[];
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
  toolsFor?: ToolsFor;
  /** Retry once with the next tier when the run stalls (default true). */
  escalate?: boolean;
  sessionId?: string;
}

export interface HelperResult extends RunResult {
  /** The model id of the run that produced the answer. */
  model: string;
  /** The provider instance name of that model. */
  provider: string;
}

/** The edit primitives are one capability offered under the model family's name (apply_patch for GPT
 * models, edit_file for the others, src/tools/registry.ts), so listing either allows the one offered. */
const EDIT_TOOLS = ["edit_file", "apply_patch"];

/** A gate that approves exactly the whitelisted tools and refuses everything else. */
export function whitelistGate(tools: readonly string[]): ToolGate {
  const allowed = new Set(tools);
  if (tools.some((t) => EDIT_TOOLS.includes(t))) for (const t of EDIT_TOOLS) allowed.add(t);
  return {
    async check(call) {
      if (allowed.has(call.tool)) {
        return { allowed: true, verdict: { effect: "allow", reason: "helper --tools whitelist" } };
      }
      const reason = "not in the helper's --tools list";
      return {
        allowed: false,
        verdict: { effect: "deny", reason },
        message: `DENIED: this action was not performed: ${call.tool} is not available in this helper run; available tools: ${tools.join(", ") || "(none)"}`,
        denial: { decidedBy: "whitelist", reason, suggestedAllow: [] },
      };
    },
  };
}

function helperSpec(options: HelperOptions): AgentSpec {
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

/** Runs a helper; a stall on a tier escalates once to the next tier (a model_switch event). */
export async function runHelper(options: HelperOptions): Promise<HelperResult> {
  const events: AgentEvent[] = [];
  const emit: EmitFn = (event) => {
    events.push(event);
    options.emit?.(event);
  };
  const attempt = async (model: string, history?: Message[]): Promise<HelperResult> => {
    const spec = helperSpec({ ...options, model });
    let ref: ModelRef | undefined;
    const result = await runAgent({
      spec,
      goal: history ? escalationGoal(options.prompt) : options.prompt,
      ...(history ? { history } : {}),
      specs: new Map([[spec.name, spec]]),
      emit,
      stream: options.stream,
      resolveModel: (name) => {
        ref = options.resolveModel(name);
        return ref;
      },
      modelInfo: options.modelInfo,
      workspace: options.workspace,
      gate: whitelistGate(options.tools),
      learnFile: null,
      ...(options.toolsFor ? { toolsFor: options.toolsFor } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.sessionId ? { sessionId: options.sessionId } : {}),
    });
    return { ...result, model: ref?.id ?? model, provider: ref?.providerName ?? "" };
  };
  const first = await attempt(options.model);
  const firstEvents = events.length;
  const next = NEXT_TIER[options.model];
  if (first.finishReason !== "stall" || options.escalate === false || next === undefined) return first;
  emit(
    makeEvent({ agent: "root", name: "helper", depth: 0 }, "model_switch", {
      from: first.model,
      to: next,
      reason: "stalled: escalating once to the next tier",
    }),
  );
  // The stall context is kept: the escalated model continues the same conversation, not from scratch.
  const second = await attempt(next, carriedHistory(events.slice(0, firstEvents)));
  return {
    ...second,
    usage: mergeUsage(first.usage, second.usage),
    ...(first.activity && second.activity
      ? { activity: mergeActivity(first.activity, second.activity) }
      : {}),
  };
}

/** What the escalated model is told after the stalled conversation. */
export function escalationGoal(prompt: string): string {
  return (
    "the same task, handed to a stronger model: the attempt above stalled, repeating itself. " +
    `Use what it found, do not repeat its calls, and finish the task:\n${prompt}`
  );
}

/**
 * The stalled attempt's conversation, to continue on the next tier: the root's messages (as resume
 * rebuilds them), without reasoning parts, which belong to the model that wrote them.
 */
export function carriedHistory(events: readonly AgentEvent[]): Message[] {
  return resumeFrom(events).messages.map((message) =>
    message.role === "assistant"
      ? { ...message, parts: message.parts.filter((part) => part.type !== "reasoning") }
      : message,
  );
}

/** Both attempts' activity as one: turns and stumbles add up, calls and denials in order. */
function mergeActivity(first: RunActivity, second: RunActivity): RunActivity {
  return {
    turns: first.turns + second.turns,
    stumbles: first.stumbles + second.stumbles,
    toolCalls: [...first.toolCalls, ...second.toolCalls],
    denials: [...first.denials, ...second.denials],
    contextElided: first.contextElided || second.contextElided,
  };
}

/** Adds the stalled attempt's usage and cost into the escalated attempt's reports (same agent ids). */
function mergeUsage(first: AgentUsageReport[], second: AgentUsageReport[]): AgentUsageReport[] {
  return second.map((report) => {
    const earlier = first.find((r) => r.agent === report.agent);
    if (!earlier) return report;
    return {
      ...report,
      usage: addUsage(report.usage, earlier.usage),
      costUsd: report.costUsd + earlier.costUsd,
      subtree: {
        usage: addUsage(report.subtree.usage, earlier.subtree.usage),
        costUsd: report.subtree.costUsd + earlier.subtree.costUsd,
      },
    };
  });
}
