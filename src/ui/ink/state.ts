/**
 * The Ink app's state and its pure reducer. Fed by events (batched by the store) and by the approver;
 * testable without Ink. Finished items go to `history` (shown once through <Static>); the live part
 * (active agents, running tools, streaming text) stays bounded whatever the length of the run.
 */
import type { ApprovalRequest } from "../../kernel/approvals.ts";
import type { AgentEvent } from "../../kernel/events.ts";
import { emptyUsage, type Usage } from "../../kernel/usage.ts";
import type { CollapsedDiff, TrackedCall } from "../format.ts";
import type { FinishedRun } from "../result.ts";
import { applyEvent, endTurn, pushItem } from "./apply-event.ts";

export { STREAM_TAIL_CHARS } from "./apply-event.ts";

/** A finished line in the transcript view; never changes once created. */
export interface HistoryItem {
  /** Unique, increasing: the React key. */
  key: number;
  kind:
    | "goal"
    | "message"
    | "tool"
    | "delegate"
    | "return"
    | "approval"
    | "warning"
    | "error"
    | "info"
    /** The end of a chat turn: status, time, tokens, cost. */
    | "status"
    /** What a chat's slash command prints. */
    | "note";
  depth: number;
  agentName: string;
  text: string;
  /** success/failure colouring where it applies. */
  ok?: boolean;
  /** Lines shown under the item, dimmed: a command's last lines of output. */
  detail?: string[];
  /** An applied edit's changed lines, collapsed (shown under the item, + green and - red with colors). */
  diff?: CollapsedDiff;
}

/** A tool call in flight. */
export interface RunningTool {
  id: string;
  tool: string;
  description: string;
  startedAt: number;
  /** A running command's last lines of output and how many lines it printed so far (tool_output). */
  output?: { lines: string[]; lineCount: number };
}

/** An agent that has started and not yet returned. */
export interface ActiveAgent {
  id: string;
  name: string;
  depth: number;
  parent?: string;
  startedAt: number;
  /** The last {@link STREAM_TAIL_CHARS} characters of the text the model is streaming this turn. */
  streamTail: string;
  tools: RunningTool[];
  /** The model of the agent's current turn (from plan_start), for pricing its usage. */
  model?: string;
  /** Set from plan_start until the first streamed text or the turn's end: waiting for the model. */
  waitingSince?: number;
}

export interface UiState {
  sessionId: string;
  goal: string;
  /** The root's model in use: after a fallback, the model it switched to (status line). */
  model: string;
  /** Fallbacks seen (`provider:model` switched from → to): a later turn asking for the first model is
   * shown with the one that answers (the fallback chain is per request). */
  switches: Record<string, string>;
  startedAt: number | undefined;
  /** Items not yet handed to <Static>; a new generation starts once the view has printed them. */
  history: HistoryItem[];
  historyGeneration: number;
  nextKey: number;
  /** Active agents in tree order (a child right after its parent's subtree). */
  agents: ActiveAgent[];
  usage: Usage;
  costUsd: number;
  /** Approval requests waiting for the user; the first one is on screen. */
  approvals: ApprovalRequest[];
  /** Requests seen in approval_request events, to name the tool when the decision arrives. */
  requests: Record<string, ApprovalRequest>;
  /** Calls between tool_start and tool_end (sub-agents and verify commands too), by call id: what a
   * denial names, and which sub-agent calls failed before their child started. */
  calls: Record<string, TrackedCall>;
  finished: (FinishedRun & { finishedAt: number }) | undefined;
  /** The root's latest message, so the summary does not print the same answer twice. */
  lastRootText: string;
}

/** Everything that changes the state. */
export type UiAction =
  | { type: "event"; event: AgentEvent }
  | { type: "approval_enqueued"; request: ApprovalRequest }
  | { type: "approval_settled"; id: string }
  | { type: "finish"; run: FinishedRun; now: number }
  /** A chat turn ended: its answer (unless shown) and status go to the history; the live part resets. */
  | { type: "turn_end"; run: FinishedRun; now: number }
  /** A line of a chat's slash command output. */
  | { type: "note"; text: string; ok?: boolean };

/** Pricing hook for live cost; cost is otherwise known only at the end. */
export type CostFn = (model: string, usage: Usage) => number;

export function initialState(): UiState {
  return {
    sessionId: "",
    goal: "",
    model: "",
    switches: {},
    startedAt: undefined,
    history: [],
    historyGeneration: 0,
    nextKey: 0,
    agents: [],
    usage: emptyUsage(),
    costUsd: 0,
    approvals: [],
    requests: {},
    calls: {},
    finished: undefined,
    lastRootText: "",
  };
}

/** Applies one action; returns a new state, never mutates `state`. */
export function reduce(state: UiState, action: UiAction, costOf?: CostFn): UiState {
  return reduceBatch(state, [action], { costOf });
}

/** Options for {@link reduceBatch}. */
export interface BatchOptions {
  costOf?: CostFn;
  /** The view has printed the current history: start a new generation holding only new items. */
  freshHistory?: boolean;
}

/** Applies a batch of actions with one copy of the state (the store's flush). Pure. */
export function reduceBatch(
  state: UiState,
  actions: readonly UiAction[],
  options: BatchOptions = {},
): UiState {
  const draft: UiState = {
    ...state,
    history: [...state.history],
    agents: state.agents.map((a) => ({ ...a, tools: [...a.tools] })),
    approvals: [...state.approvals],
    requests: { ...state.requests },
    calls: { ...state.calls },
    switches: { ...state.switches },
  };
  let fresh = options.freshHistory === true;
  for (const action of actions) {
    const before = draft.nextKey;
    apply(draft, action, options.costOf, fresh);
    if (fresh && draft.nextKey !== before) fresh = false;
  }
  return draft;
}

function apply(draft: UiState, action: UiAction, costOf: CostFn | undefined, fresh: boolean): void {
  switch (action.type) {
    case "approval_enqueued":
      if (!draft.approvals.some((r) => r.id === action.request.id)) draft.approvals.push(action.request);
      return;
    case "approval_settled":
      draft.approvals = draft.approvals.filter((r) => r.id !== action.id);
      return;
    case "finish":
      draft.finished = { ...action.run, finishedAt: action.now };
      draft.agents = [];
      if (action.run.usage[0]) draft.costUsd = action.run.usage[0].subtree.costUsd;
      return;
    case "turn_end":
      endTurn(draft, action.run, action.now, fresh);
      return;
    case "note":
      pushItem(draft, fresh, {
        kind: "note",
        depth: 0,
        agentName: "",
        text: action.text,
        ...(action.ok !== undefined ? { ok: action.ok } : {}),
      });
      return;
    case "event":
      applyEvent(draft, action.event, costOf, fresh);
  }
}
