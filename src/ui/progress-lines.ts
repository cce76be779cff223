import { totalTokens } from "../kernel/conversation/usage.ts";
import type { Denial } from "../kernel/run-events/activity.ts";
import type { ApprovalRequest } from "../kernel/run-events/approvals.ts";
import { type AgentEvent, shownAsTool } from "../kernel/run-events/events.ts";
import { terminalSafeValue } from "../kernel/text/terminal-text.ts";
import { allowFlag } from "../policy/shell-quote.ts";
import { type Palette, palette } from "./ansi.ts";
import {
  agentLabel,
  callDecided,
  callKey,
  describeCompaction,
  describeDecision,
  describeToolCall,
  failureReason,
  formatCost,
  formatDuration,
  formatTokens,
  oneLine,
  type TrackedCall,
} from "./format.ts";
import type { TextSink } from "./renderer-types.ts";
import { type FinishedRun, worktreeLines } from "./result.ts";
import { skillActivationText } from "./skill-activation-text.ts";

/** `full`: the plain renderer's progress; `minimal`: only warnings, errors and denials (JSON modes). */
export type ProgressLevel = "full" | "minimal";

/** Options for {@link ProgressLines}. */
export interface ProgressOptions {
  stderr: TextSink;
  colors: boolean;
  level: ProgressLevel;
}

/**
 * Turns events into one-line progress messages on stderr: the agent tree by indentation, one line per
 * tool call with its summary, approvals decided by flag or rule (denials always), warnings and errors.
 * Model- and tool-controlled text is made terminal-safe first (stderr is a terminal more often than not).
 */
export class ProgressLines {
  private readonly c: Palette;
  /** Sub-agents running now (act_start to act_end): id → spec name. */
  private readonly active = new Map<string, string>();
  /** The highest sub-agent index seen per spec name: from a second one on, the first is `#1` too. */
  private readonly seen = new Map<string, number>();
  /** Calls between tool_start and tool_end (sub-agents and verify commands too), by call id. */
  private readonly calls = new Map<string, TrackedCall>();
  private readonly requests = new Map<string, ApprovalRequest>();
  /** Reasoning streamed by each agent during its current model call. */
  private readonly reasoning = new Map<string, string>();
  private startedAt: number | undefined;
  /** Error messages already shown as lines, so the closing summary does not repeat them. */
  private readonly shownErrors = new Set<string>();

  constructor(private readonly options: ProgressOptions) {
    this.c = palette(options.colors);
  }

  onEvent(raw: AgentEvent): void {
    this.startedAt ??= raw.time;
    if (raw.kind === "text_delta") return; // never a line of its own
    const event = terminalSafeValue(raw);
    const line = this.lineFor(event);
    if (line === undefined) return;
    if (event.kind === "error") this.shownErrors.add(event.data.message);
    this.options.stderr.write(`${line}\n`);
  }

  /**
   * The closing line(s): status, time, tokens, cost, session and the command that continues it (full), or
   * just the error (minimal).
   */
  finish(raw: FinishedRun, now = Date.now()): void {
    const { c } = this;
    const run = terminalSafeValue(raw);
    const lines: string[] = [];
    if (run.error && !this.shownErrors.has(run.error.message)) {
      lines.push(c.red(`✗ ${run.error.kind} error: ${run.error.message}`));
    }
    const denials = run.activity?.denials ?? [];
    lines.push(...denialLines(denials).map((line, i) => (i === 0 ? c.red(line) : line)));
    if (this.options.level === "full") {
      const root = run.usage.find((r) => r.depth === 0);
      const parts = [`${run.status} (${run.finishReason})`];
      // The model that answered the root (after a fallback, the candidate that did).
      if (root?.model) parts.push(root.model);
      if (denials.length > 0) parts.push(deniedText(denials.length));
      if (this.startedAt !== undefined) parts.push(formatDuration(now - this.startedAt));
      if (root)
        parts.push(
          `${formatTokens(totalTokens(root.subtree.usage))} tokens`,
          formatCost(root.subtree.costUsd),
        );
      if (run.sessionSaved !== false) parts.push(`session ${run.sessionId}`);
      // The run ends with the command that continues it, on its last line: it works as printed (without a
      // goal, a resumed run is told to continue where it left off: run-session.ts).
      if (run.resumeCommand !== undefined) parts.push(`continue: ${run.resumeCommand}`);
      const text = `■ ${parts.join(" · ")}`;
      const clean = run.status === "success" && denials.length === 0;
      lines.push(
        clean
          ? c.green(text)
          : run.status === "success" || run.status === "limit"
            ? c.yellow(text)
            : c.red(text),
      );
      if (run.worktree !== undefined) lines.push(...worktreeLines(run.worktree));
    }
    if (lines.length > 0) this.options.stderr.write(`${lines.join("\n")}\n`);
  }

  private lineFor(event: AgentEvent): string | undefined {
    const { c } = this;
    const full = this.options.level === "full";
    const pad = "  ".repeat(event.depth);
    // With sub-agents running side by side, a sub-agent's tool lines name it, so none is unattributed.
    const tag =
      event.depth > 0 && this.parallel(event.agent) ? c.dim(`[${this.label(event.agent, event.name)}] `) : "";
    const inner = `${"  ".repeat(event.depth + 1)}${tag}`;
    switch (event.kind) {
      case "session_start":
        if (!full || event.depth > 0) return undefined;
        return `${c.bold(`▸ ${event.name}`)} ${c.dim(`(${event.data.model})`)}: ${oneLine(event.data.goal)}`;
      case "act_start": {
        const call = this.calls.get(callKey(event.agent, event.data.id));
        if (call) call.delegated = true;
        this.active.set(event.data.child, event.data.childName);
        const index = Number(event.data.child.match(/#(\d+)$/)?.[1] ?? "0");
        this.seen.set(event.data.childName, Math.max(this.seen.get(event.data.childName) ?? 0, index));
        if (!full) return undefined;
        const child = this.label(event.data.child, event.data.childName);
        return `${pad}${c.cyan("▸")} ${this.label(event.agent, event.name)}: delegating to ${c.bold(child)}: ${oneLine(event.data.goal)}`;
      }
      case "act_end": {
        const d = event.data;
        const child = this.label(d.child, d.childName);
        this.active.delete(d.child);
        if (!full) return undefined;
        const ok = d.status === "success";
        const mark = ok ? c.green("◂") : c.red("◂");
        return `${pad}${mark} ${child}: ${d.status} (${d.finishReason}) ${c.dim(oneLine(d.answer, 60))}`;
      }
      case "tool_start":
        this.calls.set(callKey(event.agent, event.data.id), {
          agent: event.agent,
          tool: event.data.tool,
          description: describeToolCall(event.data.tool, event.data.args),
        });
        return undefined;
      case "tool_end": {
        const d = event.data;
        const call = this.calls.get(callKey(event.agent, d.id));
        this.calls.delete(callKey(event.agent, d.id));
        // A refused call is one line: its denial, with who refused it and why, was printed already.
        if (!full || call?.denied) return undefined;
        const args = call?.description ?? "";
        const when = c.dim(`(${formatDuration(d.durationMs)})`);
        if (!shownAsTool(d)) {
          // A sub-agent call that failed before its child started (bad arguments) has no act lines.
          if (d.kind !== "agent" || !d.isError || call?.delegated) return undefined;
          return `${inner}${c.red("✗")} ${d.tool} ${args} — ${failureReason(d.summary)} ${when}`;
        }
        const mark = d.isError ? c.red("✗") : c.green("✓");
        // A command's last output line (where a failure usually shows), after its status and line count.
        const last = d.tail?.at(-1);
        const reason = d.isError && last === undefined ? failureReason(d.summary) : oneLine(d.summary, 80);
        const summary = d.summary ? ` — ${reason}${last ? `: ${oneLine(last, 80)}` : ""}` : "";
        return `${inner}${mark} ${d.tool} ${args}${summary} ${when}`;
      }
      case "reasoning_delta":
        this.reasoning.set(event.agent, (this.reasoning.get(event.agent) ?? "") + event.data.delta);
        return undefined;
      case "plan_end": {
        // Reasoning (thinking summaries, notes between tool calls) is shown as progress, never as the answer.
        const thought = (this.reasoning.get(event.agent) ?? "").trim();
        this.reasoning.delete(event.agent);
        if (!full) return undefined;
        const lines: string[] = [];
        if (thought !== "") lines.push(`${inner}${c.dim(`… ${event.name}: ${oneLine(thought)}`)}`);
        if (event.data.toolCalls.length > 0 && event.data.text.trim() !== "")
          lines.push(`${inner}${c.dim(`· ${event.name}: ${oneLine(event.data.text)}`)}`);
        return lines.length > 0 ? lines.join("\n") : undefined;
      }
      case "approval_request":
        this.requests.set(event.data.request.id, event.data.request);
        return undefined;
      case "approval_decision":
        return this.decisionLine(event, inner);
      case "model_switch":
        return full
          ? `${pad}${c.yellow("↻")} model ${event.data.from} → ${event.data.to} (${event.data.reason})`
          : undefined;
      case "compaction":
        return full ? `${pad}${c.yellow("↻")} ${event.name}: ${describeCompaction(event.data)}` : undefined;
      case "verify":
        // A failed tool call is already shown by its tool_end line; only failed verify: commands add news.
        if (event.data.ok || event.data.step !== "command" || !full) return undefined;
        return `${inner}${c.red("✗")} verify ${event.data.command ?? event.data.step}: ${oneLine(event.data.detail)}`;
      case "skill_activated":
        return `${pad}${c.yellow("◆")} ${event.name}: ${skillActivationText(event.data)}`;
      case "warning":
        return `${pad}${c.yellow(`⚠ ${event.name}: ${event.data.message}`)}`;
      case "error":
        return `${pad}${c.red(`✗ ${event.name}: ${event.data.message}`)}`;
      default:
        return undefined;
    }
  }

  /** Another sub-agent runs beside `id` (neither above nor below it in the tree). */
  private parallel(id: string): boolean {
    for (const other of this.active.keys()) {
      if (other !== id && !id.startsWith(`${other}/`) && !other.startsWith(`${id}/`)) return true;
    }
    return false;
  }

  /** An agent's name, with its index once a second agent of that name has started. */
  private label(id: string, name: string): string {
    return agentLabel(id, name, (this.seen.get(name) ?? 0) > 1);
  }

  private decisionLine(event: AgentEvent<"approval_decision">, indent: string): string | undefined {
    const { c } = this;
    const d = event.data;
    const request = this.requests.get(d.id);
    this.requests.delete(d.id);
    const refused = d.decision.kind === "deny" || d.decision.kind === "deny_feedback";
    const callId = refused ? callDecided(this.calls, event.agent, request) : undefined;
    const call = callId !== undefined ? this.calls.get(callId) : undefined;
    if (call) call.denied = true;
    const what = call ? `${call.tool} ${call.description}`.trim() : undefined;
    const { denied, text } = describeDecision(d, request, what);
    if (!denied && (d.source === "rule" || this.options.level === "minimal")) return undefined;
    return denied ? `${indent}${c.red(`✗ ${text}`)}` : `${indent}${c.yellow(`✓ ${text}`)}`;
  }
}

function countText(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

/** The part of a closing status line that says refused calls did not happen: `2 actions denied, not done`. */
export function deniedText(count: number): string {
  return `${countText(count, "action")} denied, not done`;
}

/** The closing list of refused calls: who, what, why, and the `--allow` rules that would let each through. */
export function denialLines(denials: readonly Denial[]): string[] {
  if (denials.length === 0) return [];
  const lines = [`✗ ${countText(denials.length, "action")} denied (not performed):`];
  for (const d of denials) {
    const target = d.target ? ` ${oneLine(d.target, 80)}` : "";
    const allow =
      d.suggestedAllow.length > 0
        ? `; to allow: ${d.suggestedAllow.map((rule) => allowFlag(rule)).join(" ")}`
        : d.rule
          ? `; remove or narrow the deny rule ${d.rule} to allow it`
          : "";
    lines.push(`  ${d.agentName} (${d.agent}): ${d.tool}${target}: ${d.reason}${allow}`);
  }
  return lines;
}
