import {
  type AgentIdentity,
  assistantText,
  assistantToolCalls,
  makeEvent,
  planText,
  type RunResult,
  type ToolCall,
} from "../../kernel/index.ts";
import { specOrigin } from "../spec/spec.ts";
import type { RunAgentOptions } from "../types.ts";
import { act } from "./act.ts";
import { RunLog } from "./bookkeeping/activity-log.ts";
import { runSignal, type SessionShared } from "./bookkeeping/session-shared.ts";
import { describeBudget, UsageTracker } from "./bookkeeping/usage-tracker.ts";
import { notRunResult, withTextToolCalls } from "./context/history.ts";
import { escalate } from "./escalation.ts";
import { statusFor } from "./finish.ts";
import { STALL_NUDGE } from "./guards.ts";
import { defaultLearnFile, LearnRecorder } from "./learn.ts";
import { AnswerShaper } from "./output-schema.ts";
import { perceive } from "./perceive.ts";
import { plan } from "./plan.ts";
import { planOfAnswer } from "./plan-mode.ts";
import {
  aborted,
  append,
  CONTINUE,
  type End,
  end,
  errorText,
  type NodeOutcome,
  type Run,
  type RunBase,
  type Step,
  type TurnState,
} from "./run-state.ts";
import { setUp } from "./setup.ts";
import type { CallResult } from "./tool-calls/invoke.ts";
import {
  judgeResults,
  runVerifyCommands,
  unverifiedFinish,
  type VerifyFailure,
  type VerifyOutcome,
  verifyFailureMessage,
} from "./verify.ts";

/**
 * The agent loop as one state machine: Perceive, Plan, Act, Verify, repeated until the model answers without
 * tool calls or a limit ends the run. This file orders the phases and is where a run ends:
 *
 *   setup (setup.ts) -> perceive (perceive.ts) -> per turn: limits -> plan (plan.ts) ->
 *     an answer: [stall -> escalation] -> [verify commands] -> [schema re-ask] -> end, or continue
 *     tool calls: [stall -> escalation], or act (act.ts) -> [verify results] -> [stall detection] -> continue
 *
 * Every phase returns one `Step` (run-state.ts): continue, or end with a finish. The first end step goes to
 * `finishRun`, the one place a run ends (only a throw, a bug, leaves otherwise: runNode turns it into an
 * internal-error result without the finishing steps, which may be what threw). The hook points in brackets are the functions below the turn; the
 * skills hook in at setup (the skill tool, a `/name` activation: setup.ts). A plain async function: every
 * dependency is injected, nothing is kept at module level, so recursive and parallel runs share nothing but
 * what they are handed.
 */
export async function runAgent(options: RunAgentOptions): Promise<RunResult> {
  const who: AgentIdentity = { agent: "root", name: options.spec.name, depth: 0 };
  const shared: SessionShared = {
    sessionId: options.sessionId,
    tracker: new UsageTracker(),
    counters: new Map(),
    log: new RunLog(),
  };
  const depthBound = options.limits?.maxDepth ?? options.spec.constraints.max_depth;
  const outcome = await runNode(options, who, shared, depthBound);
  if (options.hooks) await options.hooks.onStop(outcome.result);
  return outcome.result;
}

/** Runs one agent, the root or a child; an unexpected internal failure becomes an error result, never a throw. */
async function runNode(
  options: RunAgentOptions,
  who: AgentIdentity,
  shared: SessionShared,
  depthBound: number,
): Promise<NodeOutcome> {
  const abort = runSignal(options.signal, options.limits?.timeoutMs ?? options.spec.constraints.timeout_ms);
  try {
    const base = runBase(options, who, shared, depthBound, abort);
    return await finishRun(base, await runPhases(base));
  } catch (error) {
    const message = `internal error in ${options.spec.name}: ${errorText(error)}`;
    options.emit(makeEvent(who, "error", { message, kind: "internal" }));
    const result: RunResult = {
      status: "error",
      finishReason: "error",
      answer: "",
      usage: shared.tracker.report(who.agent),
      error: { kind: "internal", message },
      activity: shared.log.activity(who.agent),
    };
    if (who.depth === 0)
      options.emit(makeEvent(who, "session_end", { ...result, sessionId: shared.sessionId ?? "" }));
    return { result };
  } finally {
    abort.dispose();
  }
}

/** The phases in order, until one ends the run. */
async function runPhases(base: RunBase): Promise<End> {
  const ready = await setUp(base, runNode);
  if (ready.next === "end") return ready;
  const { run, state } = ready;
  await perceive(run, state);
  for (let turn = 1; ; turn++) {
    const step = limitsReached(run, state, turn) ?? (await oneTurn(run, state, turn));
    if (step.next === "end") return step;
  }
}

/** The limits checked before each turn: abort and timeout, max turns, token and cost budgets. */
function limitsReached(run: Run, state: TurnState, turn: number): End | undefined {
  const stopped = aborted(run, state);
  if (stopped) return end(stopped);
  const maxTurns = run.limits.maxTurns ?? run.options.spec.constraints.max_turns;
  if (turn - state.turnBase > maxTurns) return end({ finishReason: "max_turns", answer: state.bestAnswer });
  const over = run.shared.tracker.exceeded(run.who.agent);
  if (!over) return undefined;
  run.options.emit(makeEvent(run.who, "warning", { message: describeBudget(over), code: "budget" }));
  return end({ finishReason: "budget", answer: state.bestAnswer });
}

/** One turn: plan, then the answer's checks, or the tool calls and their results. */
async function oneTurn(run: Run, state: TurnState, turn: number): Promise<Step> {
  const planned = await plan(run, state, turn);
  if (planned.next === "end") return planned;
  // No reply: a stop reason asked for the turn again (plan.ts).
  if (!planned.reply) return CONTINUE;
  const toolNames = new Set(run.tools.keys());
  const message = withTextToolCalls(planned.reply.message, toolNames, run.who, run.options.emit, turn);
  append(run, state, message);
  const text = run.stops.answer(assistantText(message)).trim();
  if (text) state.bestAnswer = text;
  if (planned.reply.refusal) return end({ finishReason: "refusal", answer: state.bestAnswer });
  const calls = assistantToolCalls(message);
  if (calls.length === 0) return state.nudged ? afterStall(run, state, turn) : verifyAnswer(run, state, text);
  if (state.nudged) {
    // Told to answer without tools and still calling them: close the calls and end with a stall.
    for (const call of calls)
      append(run, state, notRunResult(call, "not run: you were told to answer without tools"));
    return afterStall(run, state, turn);
  }
  const acted = await act(run, state, calls);
  if (acted.next === "end") return acted;
  judgeResults(acted.results, run.who, run.options.emit, run.learn);
  detectStall(run, state, calls, acted.results);
  return CONTINUE;
}

/**
 * The one place a run ends: flushes learn signals, reports a child's early end, attaches usage and activity,
 * and emits session_end at the root.
 */
async function finishRun(base: RunBase, ended: End): Promise<NodeOutcome> {
  const { options, who } = base;
  const f = ended.finish;
  const isRoot = who.depth === 0;
  base.abort.dispose();
  await base.learn.flush();
  // A child's early end is news to its parent's watchers; the root's end is the session_end event itself.
  // An end with an error was reported by its error event already (one message, printed once).
  if (!isRoot && f.finishReason !== "stop" && f.finishReason !== "stall" && f.error === undefined) {
    const message = `${options.spec.name} ended: ${f.finishReason}`;
    options.emit(makeEvent(who, "warning", { message, code: f.finishReason }));
  }
  const status = f.status ?? statusFor(f.finishReason);
  const result: RunResult = {
    ...f,
    ...(status === "limit" ? { answer: base.shaper.partial(f.answer) } : {}),
    status,
    usage: base.shared.tracker.report(who.agent),
    activity: base.shared.log.activity(who.agent),
  };
  const planned =
    isRoot && options.planMode && status === "success" ? planOfAnswer(result.answer) : undefined;
  if (planned) {
    // The plan is kept as a structured record (the transcript's `plan` line) and shown as text.
    options.emit(makeEvent(who, "plan", { plan: planned }));
    result.answer = planText(planned);
    result.plan = planned;
  }
  if (isRoot)
    options.emit(makeEvent(who, "session_end", { ...result, sessionId: base.shared.sessionId ?? "" }));
  return ended.stop !== undefined ? { result, stop: ended.stop } : { result };
}

/** What a run has from its start: enough to end it, whatever happens in setup. */
function runBase(
  options: RunAgentOptions,
  who: AgentIdentity,
  shared: SessionShared,
  depthBound: number,
  abort: ReturnType<typeof runSignal>,
): RunBase {
  const { spec } = options;
  const now = options.now ?? Date.now;
  const learnFile = spec.constraints.can_learn ? (options.learnFile ?? defaultLearnFile()) : null;
  const learnTo = options.learnFile === null ? null : learnFile;
  return {
    options,
    who,
    shared,
    depthBound,
    abort,
    limits: options.limits ?? {},
    now,
    learn: new LearnRecorder(who, options.emit, learnTo, shared.sessionId, now),
    // `--schema` shapes the top agent's final answer only.
    shaper: new AnswerShaper(who.depth === 0 ? options.outputSchema : undefined),
  };
}

// The hook points, in the order a turn reaches them.

/** Verify hook, on an answer: it may finish once the spec's verify commands pass; a failure is told back. */
async function verifyAnswer(run: Run, state: TurnState, text: string): Promise<Step> {
  const verified = await verifyCommands(run);
  if (verified.ok) return schemaReask(run, state, "stop", text || state.bestAnswer);
  if (verified.kind !== "failed") return unverified(run, state, verified);
  if (run.abort.signal.aborted) return CONTINUE;
  state.verifyFailures++;
  if (state.verifyFailures >= (run.limits.maxVerifyAttempts ?? 3)) return unverified(run, state, verified);
  append(run, state, { role: "user", content: verifyFailureMessage(verified) });
  return CONTINUE;
}

/** Schema re-ask hook: the final answer checked against `--schema`, the end, or one re-ask. */
function schemaReask(run: Run, state: TurnState, finishReason: "stop" | "stall", answer: string): Step {
  const shaped = run.shaper.end(finishReason, answer);
  if ("finishReason" in shaped) return end(shaped);
  const message = `asking again: ${shaped.error}`;
  run.options.emit(makeEvent(run.who, "warning", { message, code: "invalid_output" }));
  append(run, state, { role: "user", content: shaped.reask });
  return CONTINUE;
}

/** Stall detection hook, after a turn's results: repeated calls or results; the model is told to answer. */
function detectStall(run: Run, state: TurnState, calls: ToolCall[], results: CallResult[]): void {
  const mutating = (name: string): boolean => run.tools.get(name)?.readOnly === false;
  const repeated = state.stall.repeatedCall(
    results.map((r, i) => ({
      call: calls[i] as ToolCall,
      result: r.message.content,
      mutated: r.outcome === "ok" && mutating(r.message.toolName),
    })),
  );
  const sameResults = state.stall.recordResults(results.map((r) => r.message));
  if ((!repeated && !sameResults) || run.abort.signal.aborted) return;
  const why = repeated ? `repeated call to ${repeated.name}` : "three identical results in a row";
  run.options.emit(makeEvent(run.who, "warning", { message: `stall detected: ${why}`, code: "stall" }));
  append(run, state, { role: "user", content: STALL_NUDGE });
  state.nudged = true;
}

/**
 * After a stall nudge, the next reply: escalation hook (a root continues once on the next tier), else the
 * stall ends in a forced answer, a success only when the verify commands pass too.
 */
async function afterStall(run: Run, state: TurnState, turn: number): Promise<Step> {
  if (escalate(run, state, turn)) return CONTINUE;
  const verified = await verifyCommands(run);
  if (!verified.ok) return unverified(run, state, verified);
  return schemaReask(run, state, "stall", state.bestAnswer);
}

/** The spec's `verify:` commands, each through the gate as an exec; none in plan mode (nothing changed). */
function verifyCommands(run: Run): Promise<VerifyOutcome> {
  return runVerifyCommands(run.options.planMode ? [] : (run.options.spec.verify ?? []), {
    invoke: run.act,
    timeoutMs: run.limits.verifyTimeoutMs ?? 120_000,
    origin: specOrigin(run.options.spec),
  });
}

/** The end when verification cannot pass: not approved, `--on-ask fail`, or failing past the attempts. */
function unverified(run: Run, state: TurnState, failure: VerifyFailure): End {
  const finish = aborted(run, state) ?? unverifiedFinish(failure, run.options.spec.name, state.bestAnswer);
  const stop = failure.kind === "approval_needed" && !run.abort.signal.aborted ? failure.message : undefined;
  if (finish.error)
    run.options.emit(makeEvent(run.who, "error", { message: finish.error.message, kind: finish.error.kind }));
  return end(finish, stop);
}
