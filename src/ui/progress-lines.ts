import type { Denial } from "../kernel/activity.ts";
import type { ApprovalRequest } from "../kernel/approvals.ts";
import { type AgentEvent, shownAsTool } from "../kernel/events.ts";
import { terminalSafeValue } from "../kernel/terminal-text.ts";
import { totalTokens } from "../kernel/usage.ts";
import { type Palette, palette } from "./ansi.ts";
import {
  describeCompaction,
  describeDecision,
  describeToolCall,
  formatCost,
  formatDuration,
  formatTokens,
  oneLine,
} from "./format.ts";
import type { TextSink } from "./renderer-types.ts";
import type { FinishedRun } from "./result.ts";

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
  private readonly calls = new Map<string, string>();
  /** Delegations (tool call ids) that started a sub-agent: their act lines show them. */
  private readonly delegated = new Set<string>();
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
      parts.push(`session ${run.sessionId}`);
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
    }
    if (lines.length > 0) this.options.stderr.write(`${lines.join("\n")}\n`);
  }

  private lineFor(event: AgentEvent): string | undefined {
    const { c } = this;
    const full = this.options.level === "full";
    const pad = "  ".repeat(event.depth);
    const inner = "  ".repeat(event.depth + 1);
    switch (event.kind) {
      case "session_start":
        if (!full || event.depth > 0) return undefined;
        return `${c.bold(`▸ ${event.name}`)} ${c.dim(`(${event.data.model})`)}: ${oneLine(event.data.goal)}`;
      case "act_start":
        this.delegated.add(event.data.id);
        if (!full) return undefined;
        return `${pad}${c.cyan("▸")} ${event.name}: delegating to ${c.bold(event.data.childName)}: ${oneLine(event.data.goal)}`;
      case "act_end": {
        if (!full) return undefined;
        const d = event.data;
        const ok = d.status === "success";
        const mark = ok ? c.green("◂") : c.red("◂");
        return `${pad}${mark} ${d.childName}: ${d.status} (${d.finishReason}) ${c.dim(oneLine(d.answer, 60))}`;
      }
      case "tool_start":
        if (!shownAsTool(event.data) && event.data.kind !== "agent") return undefined;
        this.calls.set(event.data.id, describeToolCall(event.data.tool, event.data.args));
        return undefined;
      case "tool_end": {
        const d = event.data;
        // A delegation shows by its act lines; one that failed before it started (bad arguments) has
        // none, so its failure is a tool line of its own.
        const delegated = d.kind === "agent" && this.delegated.delete(d.id);
        const failedDelegation = d.kind === "agent" && d.isError && !delegated;
        if (!shownAsTool(d) && !failedDelegation) {
          this.calls.delete(d.id);
          return undefined;
        }
        const args = this.calls.get(d.id) ?? "";
        this.calls.delete(d.id);
        if (!full) return undefined;
        const mark = d.isError ? c.red("✗") : c.green("✓");
        // A command's last output line (where a failure usually shows), after its status and line count.
        const last = d.tail?.at(-1);
        const summary = d.summary
          ? ` — ${oneLine(d.summary, 80)}${last ? `: ${oneLine(last, 80)}` : ""}`
          : "";
        return `${inner}${mark} ${d.tool} ${args}${summary} ${c.dim(`(${formatDuration(d.durationMs)})`)}`;
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
      case "warning":
        return `${pad}${c.yellow(`⚠ ${event.name}: ${event.data.message}`)}`;
      case "error":
        return `${pad}${c.red(`✗ ${event.name}: ${event.data.message}`)}`;
      default:
        return undefined;
    }
  }

  private decisionLine(event: AgentEvent<"approval_decision">, indent: string): string | undefined {
    const { c } = this;
    const d = event.data;
    const request = this.requests.get(d.id);
    this.requests.delete(d.id);
    const { denied, text } = describeDecision(d, request);
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
        ? `; to allow: ${d.suggestedAllow.map((r) => `--allow '${r}'`).join(" ")}`
        : d.rule
          ? `; remove or narrow the deny rule ${d.rule} to allow it`
          : "";
    lines.push(`  ${d.agentName} (${d.agent}): ${d.tool}${target}: ${d.reason}${allow}`);
  }
  return lines;
}
