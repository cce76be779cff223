import type { Message, UserMessage } from "../conversation/messages.ts";
import type { AgentUsageReport, Usage } from "../conversation/usage.ts";
import type { ProviderErrorKind } from "../errors.ts";
import type { DenialSource, RunActivity } from "./activity.ts";
import type { ApprovalDecision, ApprovalRequest } from "./approvals.ts";
import type { CheckpointData, RewindData } from "./checkpoint-records.ts";
import type { NotificationType } from "./notifications.ts";
import type { Plan } from "./plan.ts";

/** How a run ended. Maps to exit codes in src/cli (see docs/ci-and-json.md "Exit codes"). */
export type RunStatus = "success" | "failure" | "limit" | "error" | "interrupted";

/** Every way a run can end, as `finish_reason` in results (docs/ci-and-json.md "Machine-readable output" lists them). */
export const FINISH_REASONS = [
  "stop", // the model answered without tool calls
  "stall", // the stall guard forced a final answer (still a success)
  "max_turns",
  "timeout",
  "budget",
  "aborted",
  "verify_failed",
  "refusal",
  "truncated", // the output limit cut the answer again after one continuation (a limit: exit 5)
  "context_window", // the model's context window filled and eliding old tool results could not make room (exit 5)
  "malformed_call", // the model's tool call was malformed twice in a row (Gemini MALFORMED_FUNCTION_CALL; exit 1)
  "invalid_output", // the final answer did not match `--schema`, even after one re-ask (exit 1)
  "approval_needed",
  "provider_error",
  "error",
] as const;

export type FinishReason = (typeof FINISH_REASONS)[number];

/** The outcome of one agent run (root or child). */
export interface RunResult {
  status: RunStatus;
  finishReason: FinishReason;
  /** The final answer, or the best partial answer when a limit ended the run. */
  answer: string;
  /** Per-agent usage and cost, root first, each with its subtree roll-up. */
  usage: AgentUsageReport[];
  error?: {
    kind: ProviderErrorKind | "config" | "state" | "tool" | "approval" | "internal" | "schema";
    message: string;
  };
  /** What the agent and its sub-agents did: tool calls, denials, turns, stumbles, elided context. */
  activity?: RunActivity;
  /** Plan mode (docs/plan-mode.md): the plan the answer shows, as a structured record. */
  plan?: Plan;
}

/** What kind of tool a tool event is about (src/tools/types.ts ToolKind). */
export type ToolEventKind = "primitive" | "agent" | "verify" | "mcp";

/** Whether renderers show a tool event as a tool line: sub-agents and `verify:` commands have events of
 * their own (act_start/act_end, verify). */
export function shownAsTool(data: { kind?: ToolEventKind }): boolean {
  return data.kind !== "agent" && data.kind !== "verify";
}

/** The git worktree a session works in, as its session_start records it. */
export interface SessionWorktree {
  name: string;
  branch: string;
  /** The worktree's folder (its top, not the workspace subfolder). */
  path: string;
}

/** Payload of each session event kind. */
export interface EventDataMap {
  session_start: {
    sessionId: string;
    goal: string;
    agentName: string;
    model: string;
    cwd: string;
    resumed?: boolean;
    /** Paths of the project instruction files in the root agent's system prompt, in prompt order. */
    instructions?: string[];
    /** The git worktree the session works in (`--worktree`, docs/worktrees.md); `cwd` lies inside it. */
    worktree?: SessionWorktree;
  };
  /** `provider`: the provider the request goes to (`anthropic`, `openai`, a config provider's name). */
  plan_start: { turn: number; model: string; provider?: string };
  plan_end: {
    turn: number;
    stopReason: string;
    usage: Usage;
    text: string;
    toolCalls: { id: string; name: string }[];
  };
  text_delta: { delta: string };
  /** Reasoning the model streams (thinking summaries, progress notes between tool calls): progress for
   * the user, never part of the answer. */
  reasoning_delta: { delta: string };
  /** A message appended to the agent's history (lets --resume rebuild the conversation). */
  message: { message: Message };
  /** Every call through the tool pipeline. `kind` is absent for primitives; renderers show sub-agents
   * (`agent`) by their act events and `verify:` commands (`verify`) by their verify events. */
  tool_start: { id: string; tool: string; args: Record<string, unknown>; kind?: ToolEventKind };
  /** A running command's latest output (exec): its last lines, at most a few per second. */
  tool_output: { id: string; tool: string; lines: string[]; lineCount: number };
  /** A running tool's progress as it reports it (an MCP server's notifications/progress). */
  tool_progress: { id: string; tool: string; progress: number; total?: number; message?: string };
  tool_end: {
    id: string;
    tool: string;
    isError: boolean;
    summary: string;
    display: string;
    /** The call's own time: from tool_start to tool_end, less the wait for approval decisions. */
    durationMs: number;
    kind?: ToolEventKind;
    /** The last lines of a command's output (exec). */
    tail?: string[];
    /** How the call went (`ok`, `tool_error`, `stumble`, `denied`, `aborted`); for a denial, who decided
     * (`decidedBy`) and the deny rule (`rule`). */
    outcome?: "ok" | "tool_error" | "stumble" | "denied" | "aborted";
    decidedBy?: DenialSource;
    rule?: string;
  };
  act_start: { id: string; child: string; childName: string; goal: string };
  act_end: {
    id: string;
    child: string;
    childName: string;
    status: RunStatus;
    finishReason: FinishReason;
    answer: string;
  };
  approval_request: { request: ApprovalRequest };
  approval_decision: {
    id: string;
    decision: ApprovalDecision;
    source: "user" | "rule" | "flag";
    rule?: string;
    /** For source "flag": the user gave --on-ask (`on_ask`), no terminal at all (`default`), or stdout is not one (`no_terminal`). */
    why?: "on_ask" | "default" | "no_terminal";
  };
  verify: { step: "tool" | "command"; ok: boolean; detail: string; command?: string };
  learn_signal: { signal: "success" | "failure" | "stumble"; detail: string; tool?: string };
  model_switch: { from: string; to: string; reason: string };
  /**
   * The agent's history was compacted (src/agents/loop/context/compaction.ts): the messages before the last `kept`
   * were replaced by `summary`. Recorded in the transcript so a resume rebuilds the same history; the
   * `message` events before it stay as they were (the transcript keeps the full conversation).
   */
  compaction: {
    /** Past the threshold, asked for (`/compact`), or after the provider reported a full context window. */
    reason: "threshold" | "requested" | "context_window";
    /** The model that wrote the summary. */
    model: string;
    /** How many messages the summary replaced. */
    summarized: number;
    /** How many recent messages were kept after it. */
    kept: number;
    /** The most characters each kept tool result keeps: set when the last turn was too large to keep whole
     * (its results were cut; a resume cuts them the same way). */
    resultLimit?: number;
    /** Input tokens of the last request, as the provider reported them (threshold compactions). */
    inputTokens?: number;
    /** The input limit compaction works from: the model's maximum input, else its context window. */
    contextWindow?: number;
    /** The user message that now opens the history: the original goal and the summary. */
    summary: UserMessage;
  };
  /**
   * A skill was activated (src/agents/loop/skills/skill-activation.ts): by the model's `skill` call or the user's
   * `/name`. `path` is its SKILL.md (or command file); `granted` the allow rules its `allowed-tools` added
   * for this agent and its children; `ignored` why some were not (a project skill never approves exec).
   */
  skill_activated: {
    /** The skill's name (`name` is the agent's, as on every event). */
    skill: string;
    path: string;
    scope: "user" | "project";
    by: "model" | "user";
    fork: boolean;
    granted: string[];
    /** A continued conversation's recorded activation, activated again under today's skills and rules. */
    restored?: boolean;
    ignored?: string;
  };
  /** Files a tool call changed, kept in the checkpoint store first (docs/rewind.md). */
  checkpoint: CheckpointData;
  /** A rewind of code and/or conversation to an earlier user message, or its undo (docs/rewind.md). */
  rewind: RewindData;
  /** Plan mode's plan (docs/plan-mode.md), before session_end; `approved` when the user approved it and the
   * session goes on to execute it (a chat or a terminal run). */
  plan: { plan: Plan; approved?: boolean };
  /** The run needs the user (an approval prompt, an MCP form) or a long run ended (notifications.ts): the
   * terminal is told (OSC 9 or the bell) and the on_notification hooks run. */
  notification: { notificationType: NotificationType; message: string };
  warning: { message: string; code?: string };
  error: { message: string; kind?: string };
  session_end: RunResult & { sessionId: string };
}

export type EventKind = keyof EventDataMap;

/** One step of a run, as renderers and the transcript see it. */
export type AgentEvent<K extends EventKind = EventKind> = {
  [P in K]: {
    kind: P;
    /** Unique agent id within the session ("root", "root/code-editor#1"). */
    agent: string;
    /** The agent's spec name. */
    name: string;
    /** Parent agent id; absent for the root. */
    parent?: string;
    /** 0 for the root, parent depth + 1 below. */
    depth: number;
    /** Milliseconds since the epoch. */
    time: number;
    data: EventDataMap[P];
  };
}[K];

export type EmitFn = (event: AgentEvent) => void;

/** Identity of an agent in the event stream. */
export interface AgentIdentity {
  agent: string;
  name: string;
  parent?: string;
  depth: number;
}

/** Builds an event for an agent, stamped with the current time. */
export function makeEvent<K extends EventKind>(
  who: AgentIdentity,
  kind: K,
  data: EventDataMap[K],
): AgentEvent<K> {
  const event = {
    kind,
    agent: who.agent,
    name: who.name,
    depth: who.depth,
    time: Date.now(),
    data,
  } as AgentEvent<K>;
  if (who.parent !== undefined) (event as { parent?: string }).parent = who.parent;
  return event;
}
