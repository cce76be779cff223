/**
 * The Ink app's state and its pure reducer. Fed by events (batched by the store) and by the approver;
 * testable without Ink. Finished items go to `history` (shown once through <Static>); the live part
 * (active agents, running tools, streaming text) stays bounded whatever the length of the run.
 */
import type { ApprovalRequest } from "../../kernel/approvals.ts";
import type { AgentEvent } from "../../kernel/events.ts";
import { addUsage, emptyUsage, type Usage } from "../../kernel/usage.ts";
import { describeToolCall, formatDuration, oneLine } from "../format.ts";
import type { FinishedRun } from "../result.ts";

/** A finished line in the transcript view; never changes once created. */
export interface HistoryItem {
  /** Unique, increasing: the React key. */
  key: number;
  kind: "goal" | "message" | "tool" | "delegate" | "return" | "approval" | "warning" | "error" | "info";
  depth: number;
  agentName: string;
  text: string;
  /** success/failure colouring where it applies. */
  ok?: boolean;
}

/** A tool call in flight. */
export interface RunningTool {
  id: string;
  tool: string;
  description: string;
  startedAt: number;
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
}

export interface UiState {
  sessionId: string;
  goal: string;
  model: string;
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
  finished: (FinishedRun & { finishedAt: number }) | undefined;
  /** The root's latest message, so the summary does not print the same answer twice. */
  lastRootText: string;
}

/** Everything that changes the state. */
export type UiAction =
  | { type: "event"; event: AgentEvent }
  | { type: "approval_enqueued"; request: ApprovalRequest }
  | { type: "approval_settled"; id: string }
  | { type: "finish"; run: FinishedRun; now: number };

/** Pricing hook for live cost; cost is otherwise known only at the end. */
export type CostFn = (model: string, usage: Usage) => number;

export const STREAM_TAIL_CHARS = 600;

export function initialState(): UiState {
  return {
    sessionId: "",
    goal: "",
    model: "",
    startedAt: undefined,
    history: [],
    historyGeneration: 0,
    nextKey: 0,
    agents: [],
    usage: emptyUsage(),
    costUsd: 0,
    approvals: [],
    requests: {},
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
  };
  let fresh = options.freshHistory === true;
  for (const action of actions) {
    const before = draft.nextKey;
    apply(draft, action, options.costOf, fresh);
    if (fresh && draft.nextKey !== before) fresh = false;
  }
  return draft;
}

function push(draft: UiState, fresh: boolean, item: Omit<HistoryItem, "key">): void {
  if (fresh) {
    draft.history = [];
    draft.historyGeneration += 1;
  }
  draft.history.push({ ...item, key: draft.nextKey });
  draft.nextKey += 1;
}

function agentOf(draft: UiState, event: AgentEvent): ActiveAgent {
  let agent = draft.agents.find((a) => a.id === event.agent);
  if (!agent) {
    agent = {
      id: event.agent,
      name: event.name,
      depth: event.depth,
      startedAt: event.time,
      streamTail: "",
      tools: [],
    };
    if (event.parent !== undefined) agent.parent = event.parent;
    insertAgent(draft, agent);
  }
  return agent;
}

/** Inserts after the parent's last descendant, keeping tree order. */
function insertAgent(draft: UiState, agent: ActiveAgent): void {
  const parentIndex = draft.agents.findIndex((a) => a.id === agent.parent);
  if (parentIndex < 0) {
    draft.agents.push(agent);
    return;
  }
  let at = parentIndex + 1;
  while (at < draft.agents.length && (draft.agents[at]?.depth ?? 0) > agent.depth - 1) at++;
  draft.agents.splice(at, 0, agent);
}

/** Removes an agent and every agent below it. */
function removeSubtree(draft: UiState, id: string): void {
  const gone = new Set([id]);
  let changed = true;
  while (changed) {
    changed = false;
    for (const a of draft.agents) {
      if (!gone.has(a.id) && a.parent !== undefined && gone.has(a.parent)) {
        gone.add(a.id);
        changed = true;
      }
    }
  }
  draft.agents = draft.agents.filter((a) => !gone.has(a.id));
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
    case "event":
      applyEvent(draft, action.event, costOf, fresh);
  }
}

function applyEvent(draft: UiState, event: AgentEvent, costOf: CostFn | undefined, fresh: boolean): void {
  const base = { depth: event.depth, agentName: event.name };
  switch (event.kind) {
    case "session_start": {
      agentOf(draft, event);
      if (event.depth > 0) return;
      draft.sessionId = event.data.sessionId;
      draft.goal = event.data.goal;
      draft.model = event.data.model;
      draft.startedAt ??= event.time;
      push(draft, fresh, { ...base, kind: "goal", text: event.data.goal });
      return;
    }
    case "plan_start": {
      agentOf(draft, event).streamTail = "";
      if (event.depth === 0) draft.model = event.data.model;
      return;
    }
    case "text_delta": {
      const agent = agentOf(draft, event);
      agent.streamTail = (agent.streamTail + event.data.delta).slice(-STREAM_TAIL_CHARS);
      return;
    }
    case "plan_end": {
      agentOf(draft, event).streamTail = "";
      draft.usage = addUsage(draft.usage, event.data.usage);
      if (costOf) draft.costUsd += costOf(draft.model, event.data.usage);
      const text = event.data.text.trim();
      if (event.depth === 0) draft.lastRootText = text;
      if (text !== "") push(draft, fresh, { ...base, kind: "message", text });
      return;
    }
    case "tool_start": {
      const d = event.data;
      const description = describeToolCall(d.tool, d.args);
      agentOf(draft, event).tools.push({ id: d.id, tool: d.tool, description, startedAt: event.time });
      return;
    }
    case "tool_end": {
      const d = event.data;
      const agent = agentOf(draft, event);
      const running = agent.tools.find((t) => t.id === d.id);
      agent.tools = agent.tools.filter((t) => t.id !== d.id);
      const summary = d.summary ? ` — ${oneLine(d.summary, 80)}` : "";
      const text = `${d.tool} ${running?.description ?? ""}${summary} (${formatDuration(d.durationMs)})`;
      push(draft, fresh, { ...base, kind: "tool", text, ok: !d.isError });
      return;
    }
    case "act_start": {
      const d = event.data;
      push(draft, fresh, {
        ...base,
        kind: "delegate",
        text: `delegating to ${d.childName}: ${oneLine(d.goal)}`,
      });
      agentOf(draft, event);
      if (!draft.agents.some((a) => a.id === d.child)) {
        const child: ActiveAgent = {
          id: d.child,
          name: d.childName,
          depth: event.depth + 1,
          parent: event.agent,
          startedAt: event.time,
          streamTail: "",
          tools: [],
        };
        insertAgent(draft, child);
      }
      return;
    }
    case "act_end": {
      const d = event.data;
      removeSubtree(draft, d.child);
      const text = `${d.childName}: ${d.status} (${d.finishReason}) ${oneLine(d.answer, 60)}`;
      push(draft, fresh, { ...base, kind: "return", text, ok: d.status === "success" });
      return;
    }
    case "approval_request":
      draft.requests[event.data.request.id] = event.data.request;
      return;
    case "approval_decision": {
      const d = event.data;
      const request = draft.requests[d.id];
      delete draft.requests[d.id];
      const denied = d.decision.kind === "deny" || d.decision.kind === "deny_feedback";
      const what = request ? `${request.tool} ${describeToolCall(request.tool, request.args)}` : d.id;
      const by = d.rule ? `${d.source} ${d.rule}` : d.source;
      const feedback = d.decision.kind === "deny_feedback" ? `: ${oneLine(d.decision.feedback, 60)}` : "";
      const text = `${denied ? "denied" : "approved"} ${what} (${d.decision.kind}, by ${by})${feedback}`;
      if (denied || d.source !== "rule") push(draft, fresh, { ...base, kind: "approval", text, ok: !denied });
      return;
    }
    case "model_switch":
      if (event.depth === 0) draft.model = event.data.to;
      push(draft, fresh, {
        ...base,
        kind: "info",
        text: `model ${event.data.from} → ${event.data.to} (${event.data.reason})`,
      });
      return;
    case "verify":
      if (!event.data.ok) {
        const text = `verify ${event.data.command ?? event.data.step}: ${oneLine(event.data.detail)}`;
        push(draft, fresh, { ...base, kind: "error", text });
      }
      return;
    case "warning":
      push(draft, fresh, { ...base, kind: "warning", text: event.data.message });
      return;
    case "error":
      push(draft, fresh, { ...base, kind: "error", text: event.data.message });
      return;
    case "session_end":
      draft.agents = draft.agents.filter((a) => a.id !== event.agent);
      return;
    default:
      return;
  }
}
