/**
 * `agent helper --tools a,b`: the agent loop as a single agent with exactly the listed primitives and
 * nobody to ask (src/agents/helper-loop.ts). Imported lazily: only this path loads the loop and the tools.
 * Progress (one line per tool call, an escalation) goes to stderr when asked for.
 */
import { HELPER_SYSTEM, runHelper } from "../../agents/helper-loop.ts";
import type { HooksConfig, ToolHooks } from "../../agents/hooks/hooks.ts";
import type { OutputSchema } from "../../agents/loop/output-schema.ts";
import { type AgentEvent, type EmitFn, emptyUsage, type ModelRef, shownAsTool } from "../../kernel/index.ts";
import type { Redactor } from "../../kernel/text/redact.ts";
import { type ModelClient, modelDeps } from "../../llm/client.ts";
import type { Rule } from "../../policy/index.ts";
import { sandboxWorkspace } from "../../sdk/sandbox-setup.ts";
import { sessionToolsFor } from "../../sdk/session-tools.ts";
import { redactingEmit } from "../../session/redacting-emit.ts";
import { chooseSandbox } from "../../tools/exec/sandbox.ts";
import type { SandboxSettings } from "../../tools/exec/sandbox-settings.ts";
import type { PrimitiveName } from "../../tools/types.ts";
import { Workspace } from "../../tools/workspace.ts";
import { describeToolCall, formatDuration, oneLine } from "../../ui/format.ts";
import type { WarningLog } from "../../ui/result-warnings.ts";
import { type SystemTexts, systemPromptFrom } from "../shared/flags/system-flag.ts";
import { CUT_PROBLEM, refusalProblem } from "./helper-call.ts";
import type { HelperOutcome } from "./helper-output.ts";

export interface ToolsRunInput {
  client: ModelClient;
  /** Tier or model name as given (a tier lets a stalled run escalate once). */
  model: string;
  tools: PrimitiveName[];
  /** The user's and the project's rules (their deny rules still refuse a listed tool's call). */
  rules?: readonly Rule[];
  prompt: string;
  /** `--system` / `--append-system`, applied to the loop's built-in prompt. */
  systemTexts?: SystemTexts;
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
  /** Where exec runs (config `sandbox:` with the flags over it); only consulted when exec is offered. */
  sandbox: SandboxSettings;
  /** Where a warning goes (one stderr line, and the result's `warnings`), with its code. */
  warn: (message: string, code: string) => void;
  /** The result's `warnings`: every warning event of the loop is recorded here. */
  warnings: WarningLog;
  /** The user's hooks (and a trusted project's), as `agent run` runs them; none when absent. */
  hooks?: HooksConfig;
  /** Redacts hook output the model reads, and the events `onEvent` gets. */
  redactor: Redactor;
  /** Takes every event of the run, redacted (traces: src/telemetry/). */
  onEvent?: (event: AgentEvent) => void;
}

/** Runs the helper loop in the current directory and turns its result into a helper outcome. */
export async function runWithTools(input: ToolsRunInput): Promise<HelperOutcome> {
  let workspace = await Workspace.open(process.cwd());
  if (input.tools.includes("exec")) {
    const choice = await chooseSandbox(input.sandbox, workspace.roots, process.env);
    const sandboxed = sandboxWorkspace(workspace, input.sandbox, choice);
    workspace = sandboxed.workspace;
    if (sandboxed.warning) input.warn(sandboxed.warning, "sandbox_unavailable");
  }
  const progress = input.progress;
  const hooks = input.hooks && (await helperHooks(input.hooks, workspace.root, input));
  const system = input.systemTexts ? systemPromptFrom(input.systemTexts, HELPER_SYSTEM) : undefined;
  const result = await runHelper({
    prompt: input.prompt,
    tools: input.tools,
    // The user's fetch allow rules name the local origins fetch may reach, as in `agent run`.
    ...(input.rules ? { rules: input.rules, toolsFor: sessionToolsFor(input.rules) } : {}),
    model: input.model,
    ...modelDeps(input.client),
    workspace,
    signal: input.signal,
    ...(input.escalate === false ? { escalate: false } : {}),
    ...(system !== undefined ? { system } : {}),
    ...(input.maxTurns !== undefined ? { maxTurns: input.maxTurns } : {}),
    ...(input.timeoutMs !== undefined ? { timeoutMs: input.timeoutMs } : {}),
    ...(input.outputSchema ? { outputSchema: input.outputSchema } : {}),
    ...(input.tokenBudget !== undefined ? { tokenBudget: input.tokenBudget } : {}),
    ...(input.costBudgetUsd !== undefined ? { costBudgetUsd: input.costBudgetUsd } : {}),
    ...helperEmit(progress, input),
    ...(hooks ? { hooks } : {}),
  });
  const root = result.usage.find((r) => r.depth === 0);
  const fallback = input.fellBackTo();
  return {
    status: result.status,
    finishReason: result.finishReason,
    answer: result.answer,
    model: fallback?.id ?? result.model,
    provider: fallback?.providerName ?? result.provider,
    usage: root?.subtree.usage ?? emptyUsage(),
    costUsd: root?.subtree.costUsd ?? 0,
    ...(result.activity ? { activity: result.activity } : {}),
    ...(result.status === "success" ? {} : { problem: problemLine(result, input) }),
    ...(result.error ? { error: result.error } : {}),
  };
}

/** The hook runner of a helper run: its warnings (a hook that failed or timed out) go to `warn`. */
async function helperHooks(
  hooks: HooksConfig,
  cwd: string,
  input: Pick<ToolsRunInput, "warn" | "redactor">,
): Promise<ToolHooks> {
  const { loadHookRunner } = await import("../../agents/hooks/hooks.ts");
  const { newSessionId } = await import("../../session/session-id.ts");
  return loadHookRunner({
    hooks,
    cwd,
    sessionId: newSessionId(),
    emit: (event) => {
      if (event.kind === "warning") input.warn(event.data.message, event.data.code ?? "hook");
    },
    who: { agent: "root", name: "helper", depth: 0 },
    redactor: input.redactor,
  });
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

/**
 * The loop's emit: progress lines (which redact what they print), the redacted events for `onEvent`, and
 * every warning event into the result's `warnings` (redacted with the whole result when it is printed).
 */
function helperEmit(
  progress: ((line: string) => void) | undefined,
  input: Pick<ToolsRunInput, "onEvent" | "redactor" | "warnings">,
): { emit: EmitFn } {
  const lines = progress ? progressEmitter(progress) : undefined;
  const events = input.onEvent ? redactingEmit(input.redactor, input.onEvent) : undefined;
  return {
    emit: (event) => {
      input.warnings.onEvent(event);
      lines?.(event);
      events?.(event);
    },
  };
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
