/** How one event changes the UI state draft (the event half of the reducer in state.ts). */

import { addUsage, totalTokens } from "../../../kernel/conversation/usage.ts";
import { type AgentEvent, shownAsTool } from "../../../kernel/run-events/events.ts";
import { planText } from "../../../kernel/run-events/plan.ts";
import {
  agentLabel,
  callDecided,
  callKey,
  collapseDiff,
  describeCompaction,
  describeDecision,
  describeToolCall,
  failureReason,
  formatCost,
  formatDuration,
  formatTokens,
  oneLine,
} from "../../format.ts";
import type { FinishedRun } from "../../result.ts";
import { skillActivationText } from "../../skill-activation-text.ts";
import { closeGroup, flushGroups, type NewItem, openGroup, pushItem, route } from "./history-groups.ts";
import type { ActiveAgent, CostFn, HistoryItem, UiState } from "./state-types.ts";

/** Characters of streaming text kept per agent for the live area. */
export const STREAM_TAIL_CHARS = 600;

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

/** The model a request for `model` ends up with: the one a fallback switched it to, if any. */
function modelInUse(draft: UiState, model: string): string {
  for (const [from, to] of Object.entries(draft.switches)) {
    if (from === model || from.endsWith(`:${model}`)) return to;
  }
  return model;
}

/** Applies one event to a draft the caller owns (mutates it). `fresh`: start a new history generation. */
export function applyEvent(
  draft: UiState,
  event: AgentEvent,
  costOf: CostFn | undefined,
  fresh: boolean,
): void {
  if (event.kind === "text_delta" || event.kind === "reasoning_delta") {
    // Reasoning streams into the live area as progress; only plan_end text becomes a message. Most events
    // of a run are these: only the live tail changes (no history item, so no label to work out).
    const agent = agentOf(draft, event);
    // Reasoning, then the answer: the answer's tail starts afresh, so thinking is never shown as answer.
    const thinking = event.kind === "reasoning_delta";
    if ((agent.thinking === true) !== thinking) agent.streamTail = "";
    agent.thinking = thinking;
    agent.streamTail = (agent.streamTail + event.data.delta).slice(-STREAM_TAIL_CHARS);
    delete agent.waitingSince;
    return;
  }
  const label = (id: string, name: string): string => agentLabel(id, name, (draft.seen[name] ?? 0) > 1);
  const base = { depth: event.depth, agentName: label(event.agent, event.name) };
  const add = (item: NewItem): void => route(draft, fresh, event.agent, item);
  switch (event.kind) {
    case "session_start": {
      agentOf(draft, event);
      if (event.depth > 0) return;
      draft.sessionId = event.data.sessionId;
      draft.goal = event.data.goal;
      draft.model = event.data.model;
      draft.startedAt ??= event.time;
      draft.costBeforeTurn = draft.costUsd;
      if (draft.goalShown !== true) {
        // `agent run -c` / `--resume`: say that the model gets the earlier conversation (the chat says so
        // when it opens, and shows the user's messages itself).
        if (event.data.resumed === true) {
          const id = event.data.sessionId.split("-").at(-1) ?? event.data.sessionId;
          pushItem(draft, fresh, { ...base, kind: "info", text: `continuing session ${id}` });
        }
        pushItem(draft, fresh, { ...base, kind: "goal", text: event.data.goal });
      }
      draft.goalShown = false;
      return;
    }
    case "plan_start": {
      const agent = agentOf(draft, event);
      agent.streamTail = "";
      agent.model = event.data.model;
      agent.waitingSince = event.time;
      if (event.depth === 0) draft.model = modelInUse(draft, event.data.model);
      return;
    }
    case "plan_end": {
      const agent = agentOf(draft, event);
      agent.streamTail = "";
      delete agent.waitingSince;
      draft.usage = addUsage(draft.usage, event.data.usage);
      if (costOf) draft.costUsd += costOf(agent.model ?? draft.model, event.data.usage);
      const text = event.data.text.trim();
      if (text !== "") agent.lastText = text;
      if (event.depth === 0) draft.lastRootText = text;
      if (text !== "") add({ ...base, kind: "message", text });
      return;
    }
    case "tool_start": {
      const d = event.data;
      const description = describeToolCall(d.tool, d.args);
      draft.calls[callKey(event.agent, d.id)] = {
        agent: event.agent,
        tool: d.tool,
        description,
        startedAt: event.time,
      };
      if (!shownAsTool(d)) return;
      agentOf(draft, event).tools.push({ id: d.id, tool: d.tool, description, startedAt: event.time });
      return;
    }
    case "tool_output": {
      const d = event.data;
      const agent = agentOf(draft, event);
      // Tools are copied per batch in reduceBatch; replace the running one rather than mutate it.
      agent.tools = agent.tools.map((t) =>
        t.id === d.id ? { ...t, output: { lines: d.lines, lineCount: d.lineCount } } : t,
      );
      return;
    }
    case "tool_progress": {
      // Shown as the running tool's one output line: "3/10 · message" (lineCount 0: no "N lines").
      const d = event.data;
      const agent = agentOf(draft, event);
      const line = [d.total !== undefined ? `${d.progress}/${d.total}` : `${d.progress}`, d.message]
        .filter((part) => part !== undefined && part !== "")
        .join(" · ");
      agent.tools = agent.tools.map((t) =>
        t.id === d.id ? { ...t, output: { lines: [`progress ${line}`], lineCount: 0 } } : t,
      );
      return;
    }
    case "tool_end": {
      const d = event.data;
      const key = callKey(event.agent, d.id);
      const call = draft.calls[key];
      delete draft.calls[key];
      const agent = agentOf(draft, event);
      agent.tools = agent.tools.filter((t) => t.id !== d.id);
      // A refused call is one line, its denial (with who refused it and why), already in the history.
      if (call?.denied) return;
      const description = call?.description ?? "";
      if (!shownAsTool(d)) {
        // A sub-agent call that failed before its child started (bad arguments) has no act lines: show it.
        if (d.kind === "agent" && d.isError && !call?.delegated)
          add({
            ...base,
            kind: "tool",
            text: `${d.tool} ${description} — ${failureReason(d.summary)}`,
            ok: false,
          });
        return;
      }
      const summary = d.summary ? ` — ${d.isError ? failureReason(d.summary) : oneLine(d.summary, 80)}` : "";
      // durationMs already leaves out the wait at the approval prompt (invoke.ts).
      const text = `${d.tool} ${description}${summary} (${formatDuration(d.durationMs)})`;
      const detail = d.tail && d.tail.length > 0 ? { detail: d.tail } : {};
      // An applied edit keeps its diff in the history, collapsed to its first changed lines.
      const diff = d.isError ? undefined : collapseDiff(d.display);
      add({
        ...base,
        kind: "tool",
        text,
        ok: !d.isError,
        ...detail,
        ...(diff ? { diff } : {}),
      });
      return;
    }
    case "act_start": {
      const d = event.data;
      const key = callKey(event.agent, d.id);
      const call = draft.calls[key];
      if (call) draft.calls[key] = { ...call, delegated: true };
      agentOf(draft, event);
      const index = Number(d.child.match(/#(\d+)$/)?.[1] ?? "0");
      draft.seen[d.childName] = Math.max(draft.seen[d.childName] ?? 0, index);
      // The delegate line opens the child's group: its lines enter the history together when it returns.
      openGroup(draft, d.child, {
        ...base,
        kind: "delegate",
        text: `delegating to ${label(d.child, d.childName)}: ${oneLine(d.goal)}`,
      });
      if (!draft.agents.some((a) => a.id === d.child)) {
        const child: ActiveAgent = {
          id: d.child,
          name: d.childName,
          depth: event.depth + 1,
          parent: event.agent,
          startedAt: event.time,
          streamTail: "",
          tools: [],
          goal: d.goal,
        };
        insertAgent(draft, child);
      }
      return;
    }
    case "act_end": {
      const d = event.data;
      const child = draft.agents.find((a) => a.id === d.child);
      removeSubtree(draft, d.child);
      // The answer shows once: as the child's last message when it was one, else (cut) on this line.
      const shown = child?.lastText !== undefined && child.lastText === d.answer.trim();
      const answer = shown || d.answer.trim() === "" ? "" : ` ${oneLine(d.answer, 60)}`;
      const text = `${label(d.child, d.childName)}: ${d.status} (${d.finishReason})${answer}`;
      closeGroup(draft, fresh, d.child, event.agent, {
        ...base,
        kind: "return",
        text,
        ok: d.status === "success",
      });
      return;
    }
    case "approval_request": {
      const { request } = event.data;
      draft.requests[request.id] = request;
      // The call that asks: its live line stops counting while the prompt waits.
      const callId = callDecided(Object.entries(draft.calls), event.agent, request);
      if (callId !== undefined) {
        const id = callId.slice(callId.indexOf("\u0000") + 1);
        const agent = agentOf(draft, event);
        agent.tools = agent.tools.map((t) => (t.id === id ? { ...t, awaiting: request.id } : t));
      }
      return;
    }
    case "approval_decision": {
      const d = event.data;
      const request = draft.requests[d.id];
      delete draft.requests[d.id];
      const denied = d.decision.kind === "deny" || d.decision.kind === "deny_feedback";
      const asked = denied || d.source === "user";
      const callId = asked ? callDecided(Object.entries(draft.calls), event.agent, request) : undefined;
      const call = callId !== undefined ? draft.calls[callId] : undefined;
      if (callId !== undefined && call && denied) draft.calls[callId] = { ...call, denied: true };
      else if (callId !== undefined && call?.startedAt !== undefined) {
        // Approved by the user: the call runs from now; the live area's clock starts again.
        const id = callId.slice(callId.indexOf("\u0000") + 1);
        const agent = agentOf(draft, event);
        agent.tools = agent.tools.map((t) => (t.id === id ? { ...t, startedAt: event.time } : t));
      }
      // Whatever the answer, the call that waited on this request counts from it (denied, it ends next).
      const waiting = agentOf(draft, event);
      if (waiting.tools.some((t) => t.awaiting === d.id))
        waiting.tools = waiting.tools.map((tool) => {
          const { awaiting, ...rest } = tool;
          return awaiting === d.id ? { ...rest, startedAt: event.time } : tool;
        });
      const what = call ? `${call.tool} ${call.description}`.trim() : undefined;
      const { text } = describeDecision(d, request, what);
      if (denied || d.source !== "rule") add({ ...base, kind: "approval", text, ok: !denied });
      return;
    }
    case "model_switch":
      if (event.depth === 0) {
        draft.model = event.data.to;
        draft.switches[event.data.from] = event.data.to;
      }
      add({
        ...base,
        kind: "info",
        text: `model ${event.data.from} → ${event.data.to} (${event.data.reason})`,
      });
      return;
    case "compaction":
      add({ ...base, kind: "info", text: describeCompaction(event.data) });
      return;
    case "verify":
      // A failed tool call is already shown by its tool_end item; only failed verify: commands add news.
      if (!event.data.ok && event.data.step === "command") {
        const text = `verify ${event.data.command ?? event.data.step}: ${oneLine(event.data.detail)}`;
        add({ ...base, kind: "error", text });
      }
      return;
    case "skill_activated":
      add({ ...base, kind: "info", text: skillActivationText(event.data) });
      return;
    case "plan":
      // Plan mode's plan, as the person reviewing it reads it (the approved record repeats it: not shown).
      if (event.data.approved !== true) add({ ...base, kind: "info", text: planText(event.data.plan) });
      return;
    case "warning":
      add({ ...base, kind: "warning", text: event.data.message });
      return;
    case "error":
      add({ ...base, kind: "error", text: event.data.message });
      if (event.depth === 0) draft.lastRootError = event.data.message;
      return;
    case "session_end":
      draft.agents = draft.agents.filter((a) => a.id !== event.agent);
      return;
    default:
      return;
  }
}

/**
 * The end of a chat turn: the answer when the history does not already end with it, the error, and a
 * status line go to the history; the agents, approvals and clock reset for the next message.
 */
export function endTurn(draft: UiState, run: FinishedRun, now: number, fresh: boolean): void {
  const base = { depth: 0, agentName: run.usage[0]?.name ?? "root" };
  const open = Object.keys(draft.groups).length > 0;
  flushGroups(draft, fresh);
  let first = fresh && !open;
  const add = (item: Omit<HistoryItem, "key" | "depth" | "agentName">): void => {
    pushItem(draft, first, { ...base, ...item });
    first = false;
  };
  const answer = run.answer.trim();
  if (answer !== "" && answer !== draft.lastRootText.trim()) add({ kind: "message", text: answer });
  if (run.error && run.error.message !== draft.lastRootError)
    add({ kind: "error", text: `${run.error.kind} error: ${run.error.message}` });
  delete draft.lastRootError;
  const root = run.usage.find((r) => r.depth === 0);
  const parts = [`${run.status} (${run.finishReason})`];
  if (draft.startedAt !== undefined) parts.push(formatDuration(now - draft.startedAt));
  if (root)
    parts.push(`${formatTokens(totalTokens(root.subtree.usage))} tokens`, formatCost(root.subtree.costUsd));
  add({ kind: "status", text: parts.join(" · "), ok: run.status === "success" });
  if (root) draft.costUsd = (draft.costBeforeTurn ?? 0) + root.subtree.costUsd;
  draft.agents = [];
  draft.approvals = [];
  draft.elicitations = [];
  draft.questions = [];
  draft.calls = {};
  draft.groups = {};
  draft.lastRootText = "";
  draft.startedAt = undefined;
}
