import type { Usage } from "../kernel/conversation/usage.ts";
import { totalTokens } from "../kernel/conversation/usage.ts";
import type { ApprovalRequest } from "../kernel/run-events/approvals.ts";
import { decidedByText } from "../kernel/run-events/decision-label.ts";
import type { EventDataMap } from "../kernel/run-events/events.ts";

/** Collapses whitespace and cuts to `width` characters with an ellipsis. */
export function oneLine(text: string, width = 100): string {
  // Only the head can show: never scan a whole long text.
  const head = text.length > width * 4 ? text.slice(0, width * 4) : text;
  const flat = head.replace(/\s+/g, " ").trim();
  return flat.length > width || head !== text ? `${flat.slice(0, Math.max(0, width - 1))}…` : flat;
}

function stringArg(args: Record<string, unknown>, name: string): string | undefined {
  const value = args[name];
  return typeof value === "string" ? value : undefined;
}

/** Files named by an `*** Begin Patch` patch (`*** Update File: x`, `*** Add File: y`, ...). */
function patchFiles(patch: string): string[] {
  const files: string[] = [];
  for (const match of patch.matchAll(/^\*\*\* (?:Update|Add|Delete) File: (.+)$/gm)) {
    if (match[1]) files.push(match[1].trim());
  }
  return files;
}

/**
 * The main argument of a tool call, as one short line: the command for exec, the path for file tools,
 * the pattern for grep/glob, the URL for fetch, the goal for a sub-agent, the skill's name and
 * arguments for `skill` (`changelog-entry 1.1`), compact JSON otherwise.
 */
export function describeToolCall(tool: string, args: Record<string, unknown>, width = 80): string {
  const command = stringArg(args, "command");
  if (tool === "exec" && command !== undefined) return oneLine(`$ ${command}`, width);
  if (tool === "apply_patch") return oneLine(patchFiles(stringArg(args, "patch") ?? "").join(", "), width);
  const skill = tool === "skill" ? stringArg(args, "name") : undefined;
  if (skill !== undefined) {
    const given = stringArg(args, "arguments")?.trim();
    return oneLine(given ? `${skill} ${given}` : skill, width);
  }
  if (tool === "grep" || tool === "glob") {
    const pattern = stringArg(args, "pattern") ?? "";
    const where = stringArg(args, "path");
    return oneLine(where ? `${pattern} in ${where}` : pattern, width);
  }
  const main = stringArg(args, "path") ?? stringArg(args, "url") ?? stringArg(args, "goal") ?? command;
  if (main !== undefined) return oneLine(main, width);
  const json = JSON.stringify(args);
  return oneLine(json === "{}" ? "" : json, width);
}

/** Arguments shown in an approval prompt: long text fields (content, patch, old/new strings) elided. */
export function displayArgs(args: Record<string, unknown>, width = 100): [string, string][] {
  return Object.entries(args).map(([name, value]) => {
    const text = typeof value === "string" ? value : JSON.stringify(value);
    const lines = (text ?? "").split("\n").length;
    const shown =
      lines > 1 ? `${oneLine(text ?? "", width - 20)} (${lines} lines)` : oneLine(text ?? "", width);
    return [name, shown];
  });
}

/** `1.2s`, `3m04s`, `450ms` (kernel/text/duration-text.ts, which retry lines use too). */
export { formatDuration } from "../kernel/text/duration-text.ts";

/** `950`, `12.3k`, `1.25M`. */
export function formatTokens(count: number): string {
  if (count < 1000) return String(count);
  if (count < 1_000_000) return `${(count / 1000).toFixed(1)}k`;
  return `${(count / 1_000_000).toFixed(2)}M`;
}

/** `$0.0123` below a dollar, `$1.23` above. */
export function formatCost(usd: number): string {
  return usd < 1 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}

/** `12.3k tokens (in 10.0k, out 2.3k)`. */
export function formatUsage(usage: Usage): string {
  return `${formatTokens(totalTokens(usage))} tokens (in ${formatTokens(usage.inputTokens)}, out ${formatTokens(usage.outputTokens)})`;
}

/**
 * An approval decision as one line of text, for the plain renderer and the Ink history alike; who stood
 * in for the user is named as `agent sessions show` names it (kernel/run-events/decision-label.ts), never a flag
 * the user did not give.
 */
export function describeDecision(
  data: EventDataMap["approval_decision"],
  request: ApprovalRequest | undefined,
  /** What the call was, when no request names it (a deny rule decides without asking). */
  call?: string,
): { denied: boolean; text: string } {
  const { decision } = data;
  const denied = decision.kind === "deny" || decision.kind === "deny_feedback";
  const what = request
    ? `${request.tool} ${describeToolCall(request.tool, request.args)}`
    : (call ?? "the call");
  const by = decidedByText(data);
  if (denied) {
    const feedback = decision.kind === "deny_feedback" ? `: ${oneLine(decision.feedback, 60)}` : "";
    return { denied, text: `denied ${what} (by ${by})${feedback}` };
  }
  const scope =
    decision.kind === "session" ? `for this session${data.rule ? `, adds ${data.rule}` : ""}` : "once";
  return { denied, text: `approved ${what} (${scope}, by ${by})` };
}

/** The one-line notice of a compaction, for the plain progress line and the Ink history. */
export function describeCompaction(d: EventDataMap["compaction"]): string {
  const at =
    d.inputTokens !== undefined && d.contextWindow !== undefined
      ? ` at ${formatTokens(d.inputTokens)} of ${formatTokens(d.contextWindow)} tokens`
      : d.reason === "requested"
        ? " on request"
        : d.reason === "context_window"
          ? " after the context window filled"
          : "";
  return `compacted the conversation${at}: ${d.summarized} earlier messages summarised by ${d.model}, the last ${d.kept} kept`;
}

/** The first line of a failed call's result, as a failed line shows it: whole (results are at most 200
 * characters there), without the `error: ` the model reads. */
export function failureReason(summary: string): string {
  return oneLine(summary.replace(/^error:\s*/i, ""), 200);
}

/**
 * The key of a call tracked by the renderers: its agent and its id. Call ids come from the model and are
 * only unique within one agent's history (parallel sub-agents may be given the same ids).
 */
export function callKey(agent: string, id: string): string {
  return `${agent}\u0000${id}`;
}

/** A call the user sees, tracked from tool_start to tool_end by the renderers. */
export interface TrackedCall {
  agent: string;
  tool: string;
  description: string;
  /** A sub-agent call (tool kind `agent`) whose child started (act_start): its own lines report it. */
  delegated?: boolean;
  /** The gate refused it: its denial line already says so, with the reason. */
  denied?: boolean;
  /** When tool_start came (the Ink view). */
  startedAt?: number;
}

/**
 * The call an approval decision is about: the latest undecided call of the same agent, preferring one of
 * the request's tool (a deny rule decides without a request, and so without naming the call).
 */
export function callDecided(
  calls: Iterable<[string, TrackedCall]>,
  agent: string,
  request: ApprovalRequest | undefined,
): string | undefined {
  let found: string | undefined;
  let foundSameTool = false;
  for (const [id, call] of calls) {
    if (call.agent !== agent || call.denied) continue;
    const sameTool = request !== undefined && call.tool === request.tool;
    if (sameTool || !foundSameTool) {
      found = id;
      foundSameTool = sameTool;
    }
  }
  return found;
}

/** The changed lines an applied edit keeps in the history: the first few, and how many more there are. */
export interface CollapsedDiff {
  lines: string[];
  more: number;
}

/**
 * The changed (`+`/`-`) lines of a unified diff (an edit's display), the first `max` of them and the count
 * of the rest; undefined when `text` is no diff. File headers (`--- a/x` followed by `+++ b/x`) are not
 * changes.
 */
export function collapseDiff(text: string, max = 6): CollapsedDiff | undefined {
  if (!/^@@ /m.test(text) || !/^\+\+\+ /m.test(text)) return undefined;
  const all = text.split("\n");
  const changed: string[] = [];
  all.forEach((line, i) => {
    const header =
      (line.startsWith("--- ") && all[i + 1]?.startsWith("+++ ")) ||
      (line.startsWith("+++ ") && all[i - 1]?.startsWith("--- "));
    if (!header && (line.startsWith("+") || line.startsWith("-"))) changed.push(line);
  });
  if (changed.length === 0) return undefined;
  return { lines: changed.slice(0, max), more: Math.max(0, changed.length - max) };
}

/**
 * An agent as people tell it apart: its spec name, with the index of its id (`root/code-reader#2`) from
 * the second of that name on, or always when `indexed` (two of that name are on screen at once).
 */
export function agentLabel(id: string, name: string, indexed = false): string {
  const n = Number(id.match(/#(\d+)$/)?.[1] ?? "0");
  return n > 1 || (indexed && n > 0) ? `${name} #${n}` : name;
}
