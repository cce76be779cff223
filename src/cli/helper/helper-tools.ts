/**
 * `agent helper --tools a,b`: the agent loop as a single agent with exactly the listed primitives and
 * nobody to ask, run on the helper's session (`createSession` with a `toolWhitelist`, whose gate is
 * src/agents/helper-gate.ts). Imported only with `--tools`: only this path loads the loop and the tools.
 * Progress (one line per tool call, an escalation) goes to stderr when asked for.
 */
import { HELPER_SYSTEM, helperSpec } from "../../agents/helper-loop.ts";
import { COMPACT_THRESHOLD } from "../../agents/loop/context/compaction.ts";
import type { OutputSchema } from "../../agents/loop/output-schema.ts";
import type { AgentSpec } from "../../agents/spec/spec.ts";
import { type AgentEvent, emptyUsage, type ModelRef, shownAsTool } from "../../kernel/index.ts";
import type { Session } from "../../sdk/session.ts";
import type { PrimitiveName } from "../../tools/types.ts";
import { describeToolCall, formatDuration, oneLine } from "../../ui/format.ts";
import type { WarningLog } from "../../ui/result-warnings.ts";
import { type SystemTexts, systemPromptFrom } from "../shared/flags/system-flag.ts";
import { CUT_PROBLEM, refusalProblem } from "./helper-call.ts";
import type { HelperOutcome } from "./helper-output.ts";

/** The one agent a helper session holds: the listed primitives, `--system` over the loop's prompt. */
export function toolsSpec(input: {
  model: string;
  tools: PrimitiveName[];
  systemTexts?: SystemTexts;
  maxTurns?: number;
  timeoutMs?: number;
}): AgentSpec {
  const system = input.systemTexts ? systemPromptFrom(input.systemTexts, HELPER_SYSTEM) : undefined;
  return helperSpec({
    model: input.model,
    tools: input.tools,
    ...(system !== undefined ? { system } : {}),
    ...(input.maxTurns !== undefined ? { maxTurns: input.maxTurns } : {}),
    ...(input.timeoutMs !== undefined ? { timeoutMs: input.timeoutMs } : {}),
  });
}

export interface ToolsRunInput {
  /** The helper's session (`createSession` with `toolWhitelist`), holding {@link toolsSpec}'s agent. */
  session: Session;
  /** Sets where the session's events (redacted) go from now on. */
  listen: (onEvent: (event: AgentEvent) => void) => void;
  /** The model the helper resolved before the run (reported when no turn names another). */
  resolved: ModelRef;
  prompt: string;
  maxTurns?: number;
  timeoutMs?: number;
  signal: AbortSignal;
  /** Where progress lines go; undefined for none. */
  progress?: (line: string) => void;
  /** The model a fallback switched to, if any. */
  fellBackTo: () => ModelRef | undefined;
  /** Retry once on the next tier when the run stalls (false with `--no-fallback`). */
  escalate?: boolean;
  /** `--schema`: the answer must match it. */
  outputSchema?: OutputSchema;
  tokenBudget?: number;
  costBudgetUsd?: number;
  /** Where a warning that the helper prints goes (one stderr line; the result's `warnings` has it). */
  printWarning: (message: string) => void;
  /** The result's `warnings`: every warning event of the run is recorded here. */
  warnings: WarningLog;
  /** Takes every event of the run, redacted (traces: src/telemetry/). */
  onEvent?: (event: AgentEvent) => void;
}

/** The warnings the helper prints on stderr as they happen (the sandbox, a project's hooks, a hook that
 * failed); the loop's other warnings are only listed in the JSON result. */
const PRINTED_WARNINGS = new Set(["sandbox_unavailable", "hooks", "hook"]);

/** Runs the helper's agent on its session and turns its result into a helper outcome. */
export async function runWithTools(input: ToolsRunInput): Promise<HelperOutcome> {
  let ran: { model: string; provider: string } | undefined;
  const lines = input.progress ? progressEmitter(input.progress) : undefined;
  input.listen((event) => {
    input.warnings.onEvent(event);
    if (event.kind === "warning" && PRINTED_WARNINGS.has(event.data.code ?? ""))
      input.printWarning(event.data.message);
    if (event.kind === "plan_start" && event.depth === 0)
      ran = { model: event.data.model, provider: event.data.provider ?? "" };
    lines?.(event);
    input.onEvent?.(event);
  });
  const result = await input.session.run(input.prompt, {
    agent: "helper",
    signal: input.signal,
    // One run: an escalation continues it, so the budgets count both tiers' spending from the same counters.
    limits: {
      // The loop's own threshold, not config `defaults.compact_threshold` (which `agent run` applies).
      compactThreshold: COMPACT_THRESHOLD,
      ...(input.tokenBudget !== undefined ? { tokenBudget: input.tokenBudget } : {}),
      ...(input.costBudgetUsd !== undefined ? { costBudgetUsd: input.costBudgetUsd } : {}),
    },
    escalate: input.escalate !== false,
    ...(input.outputSchema ? { outputSchema: input.outputSchema } : {}),
  });
  const root = result.usage.find((r) => r.depth === 0);
  const fallback = input.fellBackTo();
  return {
    status: result.status,
    finishReason: result.finishReason,
    answer: result.answer,
    model: fallback?.id ?? ran?.model ?? input.resolved.id,
    provider: fallback?.providerName ?? ran?.provider ?? input.resolved.providerName,
    usage: root?.subtree.usage ?? emptyUsage(),
    costUsd: root?.subtree.costUsd ?? 0,
    ...(result.activity ? { activity: result.activity } : {}),
    ...(result.status === "success" ? {} : { problem: problemLine(result, input) }),
    ...(result.error ? { error: result.error } : {}),
  };
}

/** Why a helper loop did not succeed, as one line. */
function problemLine(
  result: { status: string; finishReason: string; answer: string; error?: { message: string } },
  input: Pick<ToolsRunInput, "maxTurns" | "timeoutMs" | "tokenBudget" | "costBudgetUsd">,
): string {
  switch (result.finishReason) {
    case "max_turns":
      return `helper stopped: reached --max-turns ${input.maxTurns ?? "limit"} before an answer`;
    case "timeout":
      return `helper stopped: --timeout ${(input.timeoutMs ?? 0) / 1000}s passed before an answer`;
    case "aborted":
      return "interrupted";
    case "truncated":
    case "context_window":
      return CUT_PROBLEM[result.finishReason];
    case "refusal":
      return refusalProblem(result.answer);
    case "malformed_call":
      return "helper ended: the model's tool call was malformed twice (malformed_call)";
    case "invalid_output":
      return `helper ended: ${result.error?.message ?? "the answer does not match --schema"}`;
    case "budget":
      return `helper stopped: the budget (${budgetText(input)}) was spent before an answer (partial answer printed)`;
    default:
      return result.error?.message ?? `helper ended: ${result.status} (${result.finishReason})`;
  }
}

/** The budgets of a run as text: `$0.01, 5000 tokens`. */
function budgetText(input: Pick<ToolsRunInput, "tokenBudget" | "costBudgetUsd">): string {
  const parts: string[] = [];
  if (input.costBudgetUsd !== undefined) parts.push(`$${input.costBudgetUsd}`);
  if (input.tokenBudget !== undefined) parts.push(`${input.tokenBudget} tokens`);
  return parts.join(", ") || "spec";
}

/** One stderr line per finished tool call, and one for an escalation. */
function progressEmitter(write: (line: string) => void): (event: AgentEvent) => void {
  const calls = new Map<string, string>();
  return (event) => {
    if ((event.kind === "tool_start" || event.kind === "tool_end") && !shownAsTool(event.data)) return;
    if (event.kind === "tool_start") {
      calls.set(event.data.id, describeToolCall(event.data.tool, event.data.args));
    } else if (event.kind === "tool_end") {
      const d = event.data;
      const args = calls.get(d.id) ?? "";
      calls.delete(d.id);
      const summary = d.summary ? ` — ${oneLine(d.summary, 80)}` : "";
      write(`${d.isError ? "✗" : "✓"} ${d.tool} ${args}${summary} (${formatDuration(d.durationMs)})`);
    } else if (event.kind === "model_switch") {
      write(`↻ model ${event.data.from} → ${event.data.to} (${event.data.reason})`);
    }
  };
}
