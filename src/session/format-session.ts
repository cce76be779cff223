import { totalTokens } from "../kernel/conversation/usage.ts";
import type { ApprovalRequest } from "../kernel/run-events/approvals.ts";
import { decidedByText } from "../kernel/run-events/decision-label.ts";
import type { AgentEvent } from "../kernel/run-events/events.ts";

/** Options for {@link formatSession}. */
export interface FormatSessionOptions {
  /** Include every tool call and message, not just the outline. Default true. */
  detailed?: boolean;
}

const WIDTH = 100;

/**
 * Renders a transcript as readable text for `agent sessions show`: a header, then one line per step
 * (delegations indented by depth, tool calls with their summaries, approvals, warnings), then the result.
 */
export function formatSession(events: readonly AgentEvent[], options: FormatSessionOptions = {}): string {
  const detailed = options.detailed ?? true;
  const out: string[] = [];
  const start = events[0]?.time ?? 0;
  // Approval requests by id: a decision names the call it decided.
  const requests = new Map<string, ApprovalRequest>();
  for (const event of events) {
    if (event.kind === "approval_request") requests.set(event.data.request.id, event.data.request);
    const line = describe(event, detailed, requests);
    if (line === undefined) continue;
    const stamp = event.kind === "session_start" ? "" : `+${formatOffset(event.time - start)} `;
    out.push(`${stamp}${"  ".repeat(event.depth)}${line}`);
  }
  return `${out.join("\n")}\n`;
}

function describe(
  event: AgentEvent,
  detailed: boolean,
  requests: ReadonlyMap<string, ApprovalRequest>,
): string | undefined {
  switch (event.kind) {
    case "session_start": {
      const d = event.data;
      const resumed = d.resumed ? " (resumed)" : "";
      const when = new Date(event.time).toISOString();
      // A worktree run names its worktree as the end of the run did (ui/result.ts worktreeLines).
      const worktree = d.worktree
        ? `worktree ${d.worktree.name}: ${d.worktree.path} (branch ${d.worktree.branch})\n`
        : "";
      return `session ${d.sessionId}${resumed} · ${when}\nagent ${d.agentName} · model ${d.model} · cwd ${d.cwd}\n${worktree}goal: ${d.goal}\n`;
    }
    case "act_start":
      return `▸ ${event.name}: delegating to ${event.data.childName}: ${oneLine(event.data.goal)}`;
    case "act_end":
      return `◂ ${event.data.childName} ${event.data.status} (${event.data.finishReason}): ${oneLine(event.data.answer)}`;
    case "tool_end":
      if (!detailed) return undefined;
      return `${event.data.isError ? "✗" : "✓"} ${event.data.tool} ${oneLine(event.data.summary)} (${event.data.durationMs} ms)`;
    case "plan_end":
      if (!detailed || event.data.text.trim() === "") return undefined;
      return `${event.name}: ${oneLine(event.data.text)}`;
    case "approval_request":
      return `? ${event.data.request.agentName} asks for ${event.data.request.tool}: ${oneLine(event.data.request.preview)}`;
    case "approval_decision": {
      // Labelled as the live progress line labelled it: the same `by …` (kernel/run-events/decision-label.ts).
      const d = event.data;
      const request = requests.get(d.id);
      const what = request ? ` ${request.tool} ${oneLine(requestTarget(request.args))}`.trimEnd() : "";
      const by = decidedByText(d);
      if (d.decision.kind === "deny" || d.decision.kind === "deny_feedback") {
        const feedback = d.decision.kind === "deny_feedback" ? `: ${oneLine(d.decision.feedback)}` : "";
        return `✗ denied${what} (by ${by})${feedback}`;
      }
      const scope =
        d.decision.kind === "session" ? `for this session${d.rule ? `, adds ${d.rule}` : ""}` : "once";
      return `✓ approved${what} (${scope}, by ${by})`;
    }
    case "model_switch":
      return `↻ model ${event.data.from} → ${event.data.to} (${event.data.reason})`;
    case "verify":
      return event.data.ok
        ? undefined
        : `✗ verify ${event.data.command ?? event.data.step}: ${oneLine(event.data.detail)}`;
    case "warning":
      return `⚠ ${event.data.message}`;
    case "error":
      return `✗ error: ${event.data.message}`;
    case "session_end": {
      const d = event.data;
      const tokens = d.usage[0] ? totalTokens(d.usage[0].subtree.usage) : 0;
      const cost = d.usage[0] ? d.usage[0].subtree.costUsd : 0;
      const head = `■ ${d.status} (${d.finishReason}) · ${tokens} tokens · $${cost.toFixed(4)}`;
      return event.depth === 0 ? `${head}\n\n${d.answer}` : head;
    }
    default:
      return undefined;
  }
}

/** What a call is about: its command, path, URL or goal (the first of them it has). */
function requestTarget(args: Record<string, unknown>): string {
  for (const key of ["command", "path", "url", "goal"]) {
    const value = args[key];
    if (typeof value === "string") return value;
  }
  return "";
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > WIDTH ? `${flat.slice(0, WIDTH - 1)}…` : flat;
}

function formatOffset(ms: number): string {
  const seconds = Math.max(0, ms) / 1000;
  return seconds < 60 ? `${seconds.toFixed(1)}s` : `${Math.floor(seconds / 60)}m${Math.round(seconds % 60)}s`;
}
