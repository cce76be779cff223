/**
 * The shapes of the Ink app's state (a leaf module: the reducer in state.ts and its event half in
 * apply-event.ts both import it, so neither imports the other for types).
 */

import type { Usage } from "../../../kernel/conversation/usage.ts";
import type { ApprovalRequest } from "../../../kernel/run-events/approvals.ts";
import type { ElicitationQuestion } from "../../../kernel/run-events/elicitation.ts";
import type { AgentEvent } from "../../../kernel/run-events/events.ts";
import type { ChatWelcomeInfo, EarlierMessage } from "../../chat-types.ts";
import type { CollapsedDiff, TrackedCall } from "../../format.ts";
import type { FinishedRun } from "../../result.ts";

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
    | "note"
    /** The chat's opening screen (`welcome` holds what it says). */
    | "welcome";
  depth: number;
  agentName: string;
  text: string;
  /** success/failure colouring where it applies. */
  ok?: boolean;
  /** Lines shown under the item, dimmed: a command's last lines of output. */
  detail?: string[];
  /** For `welcome`: the model, workspace and keys. */
  welcome?: ChatWelcomeInfo;
  /** An applied edit's changed lines, collapsed (shown under the item, + green and - red with colors). */
  diff?: CollapsedDiff;
}

/** A tool call in flight. */
export interface RunningTool {
  id: string;
  tool: string;
  description: string;
  startedAt: number;
  /**
   * The id of the approval request this call waits on: its clock stands still until the answer (the
   * wait is not the tool's time, docs/chat.md), and starts from the answer.
   */
  awaiting?: string;
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
  /** The tail is the model's reasoning (labelled `thinking` on screen), not its answer. */
  thinking?: boolean;
  tools: RunningTool[];
  /** The model of the agent's current turn (from plan_start), for pricing its usage. */
  model?: string;
  /** Set from plan_start until the first streamed text or the turn's end: waiting for the model. */
  waitingSince?: number;
  /** A sub-agent's goal, shown beside its name. */
  goal?: string;
  /** A sub-agent's latest finished lines (its own are held until it returns, see `groups`). */
  recent?: string[];
  /** The text of the agent's latest model turn: a sub-agent's answer already shown as its message. */
  lastText?: string;
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
  /** MCP servers' forms waiting for the user. */
  elicitations: ElicitationQuestion[];
  /** Ids of the waiting approvals and forms in the order they came: the first is on screen, so a
   * question that arrives later never replaces one the user is answering. */
  questions: string[];
  /** Requests seen in approval_request events, to name the tool when the decision arrives. */
  requests: Record<string, ApprovalRequest>;
  /**
   * Items of running sub-agents, held by agent id until the sub-agent returns: then its delegate line,
   * its own items (and its children's groups) and its return line enter the history together, so each
   * tool line sits under its own agent even when sub-agents run in parallel.
   */
  groups: Record<string, Omit<HistoryItem, "key">[]>;
  /** The highest sub-agent index seen per spec name: from a second one on, the first is `#1` too. */
  seen: Record<string, number>;
  /** Calls between tool_start and tool_end (sub-agents and verify commands too), by call id: what a
   * denial names, and which sub-agent calls failed before their child started. */
  calls: Record<string, TrackedCall>;
  finished: (FinishedRun & { finishedAt: number }) | undefined;
  /** The root's latest message, so the summary does not print the same answer twice. */
  lastRootText: string;
  /** The root's latest error line (an `error` event): the run's end does not print the same error again. */
  lastRootError?: string;
  /** The chat's cost before the running turn: at the turn's end the status line's cost becomes this
   * plus the turn's cost as the run reports it (its live sum is priced from the model name alone, which
   * cannot tell a free local server's model from a paid one). */
  costBeforeTurn?: number;
  /** The chat showed the user's message as typed (`sent`): the next root goal line is left out, since
   * that goal may be the message expanded (a `/skill` line becomes the skill's instructions). */
  goalShown?: boolean;
}

/** Pricing hook for live cost; cost is otherwise known only at the end. */
export type CostFn = (model: string, usage: Usage) => number;

/** Everything that changes the state. */
export type UiAction =
  | { type: "event"; event: AgentEvent }
  | { type: "approval_enqueued"; request: ApprovalRequest }
  | { type: "approval_settled"; id: string }
  | { type: "elicitation_enqueued"; question: ElicitationQuestion }
  | { type: "elicitation_settled"; id: string }
  | { type: "finish"; run: FinishedRun; now: number }
  /** A chat turn ended: its answer (unless shown) and status go to the history; the live part resets. */
  | { type: "turn_end"; run: FinishedRun; now: number }
  /** The user's chat message as typed, shown as `▸ you: TEXT` before its turn runs. */
  | { type: "sent"; text: string }
  /** A line of a chat's slash command output. */
  | { type: "note"; text: string; ok?: boolean }
  /** The chat's opening screen, first in the history. */
  | { type: "welcome"; info: ChatWelcomeInfo }
  /** A continued chat's earlier conversation, shown again as scrollback. */
  | { type: "earlier"; messages: readonly EarlierMessage[] }
  /** `/clear`: the status line starts over (no tokens, cost or time), with `model` when given. */
  | { type: "reset"; model?: string }
  /** `/model NAME`: the status line names the model the next message runs on (`provider:id` or an id). */
  | { type: "model"; model: string };
