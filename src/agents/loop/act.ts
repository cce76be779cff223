import { makeEvent, type ToolCall, type ToolDefinition } from "../../kernel/index.ts";
import type { Tool } from "../../tools/types.ts";
import { type ActContext, append, end, type Run, type Step, type TurnState } from "./run-state.ts";
import { ABORTED_RESULT, type CallResult, errorResult, invoke, traced } from "./tool-calls/invoke.ts";
import { repairToolCall } from "./tool-calls/tool-call-repair.ts";

export type { ActContext } from "./run-state.ts";
export { ABORTED_RESULT, type CallOutcome, type CallResult } from "./tool-calls/invoke.ts";

/**
 * Act: runs one response's tool calls, each through the one pipeline (invoke.ts). Concurrent tools
 * (read-only primitives, sub-agents) run together (bounded); any other waits for everything before it
 * and runs alone; results come back in the model's order.
 */

/**
 * Act: every call of the turn through the pipeline, results appended in the model's order. Continues with
 * the results; ends when a call says the session must stop (`--on-ask fail`).
 */
export async function act(
  run: Run,
  state: TurnState,
  calls: ToolCall[],
): Promise<Step<{ results: CallResult[] }>> {
  const { results, stop, stopReported } = await actOnCalls(calls, run.act);
  for (const r of results) append(run, state, r.message);
  run.shared.log.results(run.who, results);
  if (stop === undefined) return { next: "continue", results };
  // One error event per stop: from the agent whose call needed the approval, not again from each parent.
  if (!stopReported) run.options.emit(makeEvent(run.who, "error", { message: stop, kind: "approval" }));
  const error = { kind: "approval" as const, message: stop };
  // No answer: what the model said so far is a preamble ("Delegating the edit."), not a result, and
  // stdout holds exactly the answer.
  return end({ finishReason: "approval_needed", answer: "", error }, stop);
}

/**
 * Runs the calls and returns one result per call, in the calls' order. When a call says the session
 * must stop (`--on-ask fail`), the calls not yet run get error results and `stop` is set.
 */
export async function actOnCalls(
  calls: ToolCall[],
  ctx: ActContext,
): Promise<{ results: CallResult[]; stop?: string; stopReported?: boolean }> {
  const results: CallResult[] = new Array(calls.length);
  let stop: string | undefined;
  let stopReported = false;
  const runOne = async (i: number): Promise<void> => {
    const call = calls[i] as ToolCall;
    if (stop !== undefined) {
      results[i] = errorResult(call, `not run: ${stop}`, "aborted");
      return;
    }
    const result = await runCall(call, ctx);
    results[i] = result;
    if (stop === undefined && result.stop !== undefined) {
      stop = result.stop;
      stopReported = result.stopReported === true;
    }
  };
  const limit = limiter(Math.max(1, ctx.concurrency));
  let inflight: Promise<void>[] = [];
  for (let i = 0; i < calls.length; i++) {
    if (ctx.tools.get((calls[i] as ToolCall).name)?.concurrent ?? true) {
      inflight.push(limit(() => runOne(i)));
    } else {
      await Promise.all(inflight);
      inflight = [];
      await runOne(i);
    }
  }
  await Promise.all(inflight);
  return stop !== undefined ? { results, stop, stopReported } : { results };
}

/** A concurrency limiter: at most `n` tasks at once, started in call order (a freed slot is handed over). */
function limiter(n: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0;
  const queue: (() => void)[] = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (active < n) active++;
    else await new Promise<void>((resolve) => queue.push(resolve));
    try {
      return await task();
    } finally {
      const next = queue.shift();
      if (next) next();
      else active--;
    }
  };
}

/** The definitions of a registry, as offered to the model. */
export function definitionsOf(tools: ReadonlyMap<string, Tool>): ToolDefinition[] {
  // Offered by the registry's key, the name the model calls (`mcp__github__create_issue` for
  // `mcp:github/create_issue`).
  return [...tools].map(([name, t]) => ({
    name,
    description: t.description,
    parameters: t.parameters,
  }));
}

/** Finds the tool and repairs malformed argument JSON; then the pipeline. */
async function runCall(original: ToolCall, ctx: ActContext): Promise<CallResult> {
  if (ctx.signal.aborted) return errorResult(original, ABORTED_RESULT, "aborted");
  const tool = ctx.tools.get(original.name);
  if (!tool) {
    const withheld = ctx.gate.unavailable?.(original.name);
    if (withheld) {
      const { message, denial } = withheld;
      return traced(original, ctx, async () => ({ ...errorResult(original, message, "denied"), denial }));
    }
    const available = [...ctx.tools.keys()].join(", ") || "(none)";
    const text = `error: unknown tool "${original.name}". Available tools: ${available}. Call one of these, or answer without tools.`;
    return traced(original, ctx, async () => errorResult(original, text, "stumble"));
  }
  const repair = repairToolCall(original);
  if (!repair.ok) {
    const text =
      `error: ${repair.error}. Raw arguments: ${repair.rawArguments.slice(0, 500)}\n` +
      `Call ${original.name} again with a JSON object matching this schema: ${JSON.stringify(tool.parameters)}`;
    return traced(original, ctx, async () => errorResult(original, text, "stumble"), tool);
  }
  if (repair.repaired) {
    const message = `repaired malformed JSON arguments of ${original.name} (${original.parseError})`;
    ctx.emit(makeEvent(ctx.who, "warning", { message, code: "tool_args_repaired" }));
  }
  return invoke(tool, repair.call, ctx);
}
