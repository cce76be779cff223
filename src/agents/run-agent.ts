import {
  type AgentIdentity,
  type ApprovalNeededError,
  assistantText,
  assistantToolCalls,
  type Message,
  type ModelInfo,
  type ModelRef,
  type ModelRequest,
  makeEvent,
  modelFamily,
  type RunResult,
  type ToolDefinition,
} from "../kernel/index.ts";
import { toolDefinitionsFor } from "../tools/registry.ts";
import { type ActContext, actOnCalls } from "./act.ts";
import { COMPACT_THRESHOLD, Compactor } from "./compaction.ts";
import { makeDelegate, subAgentDefinitions } from "./delegation.ts";
import { escalationNote, nextTier, withoutReasoning } from "./escalation.ts";
import {
  ContextMeter,
  compactForRetry,
  ELIDE_THRESHOLD,
  elideOldToolResults,
  LAST_RESORT_ELIDE_THRESHOLD,
  STALL_NUDGE,
  StallDetector,
} from "./guards.ts";
import { closeOpenToolCalls, notRunResult, repairHistory, withTextToolCalls } from "./history.ts";
import { systemPromptWith } from "./instructions.ts";
import { defaultLearnFile, LearnRecorder } from "./learn.ts";
import { AnswerShaper } from "./output-schema.ts";
import { continueMessage, initialMessage, workspaceFacts } from "./perceive.ts";
import { planTurn } from "./plan.ts";
import { RunLog } from "./run-log.ts";
import { type Finish, runSignal, type SessionShared, statusFor } from "./run-state.ts";
import { type AgentSpec, primitiveCapabilities, specOrigin } from "./spec.ts";
import { StopHandler } from "./stop-reasons.ts";
import { decideAuto } from "./tier-classifier.ts";
import type { RunAgentOptions } from "./types.ts";
import { describeBudget, UsageTracker } from "./usage-tracker.ts";
import {
  judgeResults,
  runVerifyCommands,
  unverifiedFinish,
  type VerifyFailure,
  verifyFailureMessage,
} from "./verify.ts";

/**
 * The agent loop: Perceive, Plan, Act, Verify, repeated until the model answers without tool calls
 * or a limit ends the run. A plain async function: every dependency is injected, nothing is kept at
 * module level, so recursive and parallel runs share nothing but what they are handed.
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
  return outcome.result;
}

/** A finished node: its result, and the approval error that must end the whole session, if any. */
interface NodeOutcome {
  result: RunResult;
  approvalError?: ApprovalNeededError;
}

/** Runs one agent; an unexpected internal failure becomes an error result, never a throw. */
async function runNode(
  options: RunAgentOptions,
  who: AgentIdentity,
  shared: SessionShared,
  depthBound: number,
): Promise<NodeOutcome> {
  const run = runSignal(options.signal, options.limits?.timeoutMs ?? options.spec.constraints.timeout_ms);
  try {
    return await runNodeUnguarded(options, who, shared, depthBound, run);
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
    run.dispose();
  }
}

async function runNodeUnguarded(
  options: RunAgentOptions,
  who: AgentIdentity,
  shared: SessionShared,
  depthBound: number,
  run: ReturnType<typeof runSignal>,
): Promise<NodeOutcome> {
  const { spec, emit } = options;
  const now = options.now ?? Date.now;
  const limits = options.limits ?? {};
  const maxTurns = limits.maxTurns ?? spec.constraints.max_turns;
  const isRoot = who.depth === 0;
  const learnFile = spec.constraints.can_learn ? (options.learnFile ?? defaultLearnFile()) : null;
  const learn = new LearnRecorder(
    who,
    emit,
    options.learnFile === null ? null : learnFile,
    shared.sessionId,
    now,
  );
  const messages: Message[] = options.history ? repairHistory(options.history) : [];
  // `--schema` shapes the top agent's final answer only.
  const shaper = new AnswerShaper(isRoot ? options.outputSchema : undefined);
  let bestAnswer = "";
  let approvalError: ApprovalNeededError | undefined;
  // `auto` (a flag or the spec) is decided from this agent's goal, as `agent helper --tier auto` does.
  const requested = decideAuto(options.model ?? spec.model, options.goal).name;
  let modelName = requested;
  let started = false;
  const instructed = spec.instructions !== false && (options.instructions?.files.length ?? 0) > 0;
  const system = systemPromptWith(spec.system_prompt, options.instructions, spec.instructions === false);
  const emitSessionStart = (model: string): void => {
    started = true;
    emit(
      makeEvent(who, "session_start", {
        sessionId: shared.sessionId ?? "",
        goal: options.goal,
        agentName: spec.name,
        model,
        cwd: options.workspace.root,
        ...(options.resumed ? { resumed: true } : {}),
        ...(instructed ? { instructions: options.instructions?.files.map((f) => f.path) ?? [] } : {}),
      }),
    );
    for (const message of options.instructions?.warnings ?? [])
      emit(makeEvent(who, "warning", { message, code: "instructions" }));
  };

  const append = (message: Message): void => {
    messages.push(message);
    emit(makeEvent(who, "message", { message }));
  };
  const finish = async (f: Finish): Promise<NodeOutcome> => {
    run.dispose();
    await learn.flush();
    if (isRoot && !started) emitSessionStart(modelName);
    // A child's early end is news to its parent's watchers; the root's end is the session_end event itself.
    if (!isRoot && f.finishReason !== "stop" && f.finishReason !== "stall") {
      emit(
        makeEvent(who, "warning", { message: `${spec.name} ended: ${f.finishReason}`, code: f.finishReason }),
      );
    }
    const status = f.status ?? statusFor(f.finishReason);
    const result: RunResult = {
      ...f,
      ...(status === "limit" ? { answer: shaper.partial(f.answer) } : {}),
      status,
      usage: shared.tracker.report(who.agent),
      activity: shared.log.activity(who.agent),
    };
    if (isRoot) emit(makeEvent(who, "session_end", { ...result, sessionId: shared.sessionId ?? "" }));
    return approvalError ? { result, approvalError } : { result };
  };
  const fail = (
    message: string,
    kind: NonNullable<RunResult["error"]>["kind"] = "internal",
  ): Promise<NodeOutcome> => {
    emit(makeEvent(who, "error", { message, kind }));
    return finish({ finishReason: "error", answer: bestAnswer, error: { kind, message } });
  };

  let model: ModelRef;
  let info: ModelInfo;
  try {
    model = options.resolveModel(modelName);
    info = options.modelInfo(model);
    modelName = model.id;
  } catch (error) {
    shared.tracker.register({ ...who, model: modelName });
    if (isRoot) emitSessionStart(modelName);
    return fail(`cannot resolve model "${modelName}" for ${spec.name}: ${errorText(error)}`, "config");
  }
  shared.tracker.register({
    ...who,
    model: model.id,
    // A flag's budget beats the spec's; a child's spec budget bounds its subtree, and every ancestor's
    // budget still bounds it (usage-tracker.ts checks the whole chain).
    tokenBudget: limits.tokenBudget ?? spec.constraints.max_tokens,
    costBudgetUsd: limits.costBudgetUsd ?? spec.constraints.max_cost_usd,
  });
  if (isRoot) emitSessionStart(model.id);

  // Tools: sub-agents (while depth allows) and primitives.
  const toolsFor = options.toolsFor ?? toolDefinitionsFor;
  let primitiveTools: ReturnType<typeof toolsFor>;
  try {
    primitiveTools = toolsFor(primitiveCapabilities(spec), modelFamily(model));
  } catch (error) {
    return fail(`cannot build the tools of ${spec.name}: ${errorText(error)}`, "config");
  }
  const canSpawn = spec.constraints.can_spawn && who.depth < depthBound;
  const subAgents = canSpawn ? subAgentDefinitions(spec, options.specs) : { definitions: [], missing: [] };
  if (subAgents.missing.length > 0) {
    return fail(`${spec.name} names unknown agents: ${subAgents.missing.join(", ")}`, "config");
  }
  if (!canSpawn && subAgentDefinitions(spec, options.specs).definitions.length > 0) {
    emit(
      makeEvent(who, "warning", {
        message: `${spec.name} is at max depth ${depthBound}: no sub-agents offered`,
      }),
    );
  }
  const tools: ToolDefinition[] = [...subAgents.definitions, ...primitiveTools.definitions];
  const toolNames = new Set(tools.map((t) => t.name));

  const delegate = makeDelegate({
    who,
    emit,
    specs: options.specs,
    counters: shared.counters,
    depthBound,
    runChild: (childSpec, goal, hints, child, childDepthBound) =>
      runNode(
        {
          ...options,
          spec: childSpec,
          goal,
          hints,
          history: undefined,
          model: undefined,
          outputSchema: undefined,
          resumed: false,
          escalate: false,
          signal: run.signal,
          gate: options.gate.child?.() ?? options.gate,
          limits: {
            concurrency: limits.concurrency,
            verifyTimeoutMs: limits.verifyTimeoutMs,
            compactThreshold: limits.compactThreshold,
          },
          compactFirst: false,
        },
        child,
        shared,
        childDepthBound,
      ),
  });
  const actContext: ActContext = {
    who,
    emit,
    workspace: options.workspace,
    gate: options.gate,
    signal: run.signal,
    primitives: primitiveTools.primitives,
    definitions: tools,
    subAgents: new Set(subAgents.definitions.map((d) => d.name)),
    delegate,
    concurrency: limits.concurrency ?? 4,
    now,
  };

  // Perceive.
  if (messages.length === 0) {
    append({
      role: "user",
      content: initialMessage(
        options.goal,
        options.hints ?? [],
        await workspaceFacts(options.workspace.root),
      ),
    });
  } else {
    closeOpenToolCalls(messages, append);
    append({ role: "user", content: continueMessage(options.goal, options.hints ?? []) });
  }

  let stall = new StallDetector();
  // A stalled root may continue once on the next tier (escalation.ts), with its conversation kept.
  let escalateTo = isRoot && options.escalate === true ? nextTier(requested) : undefined;
  let turnBase = 0;
  const escalate = (turn: number): boolean => {
    const next = escalateTo;
    escalateTo = undefined;
    if (next === undefined || run.signal.aborted) return false;
    let ref: ModelRef;
    try {
      ref = options.resolveModel(next);
    } catch {
      return false;
    }
    emit(
      makeEvent(who, "model_switch", {
        from: model.id,
        to: ref.id,
        reason: `stalled: escalating once to ${next}, with the conversation so far`,
      }),
    );
    model = ref;
    info = options.modelInfo(ref);
    messages.splice(0, messages.length, ...withoutReasoning(messages));
    append({ role: "user", content: escalationNote(options.goal) });
    stall = new StallDetector();
    nudged = false;
    turnBase = turn;
    return true;
  };
  const meter = new ContextMeter();
  const compactor = new Compactor(
    {
      who,
      emit,
      stream: options.stream,
      resolveModel: options.resolveModel,
      modelInfo: options.modelInfo,
      signal: run.signal,
      onUsage: (usage, summarizer) => shared.tracker.add(who.agent, usage, summarizer),
    },
    limits.compactThreshold ?? COMPACT_THRESHOLD,
    () => info.contextWindow,
  );
  if (options.compactFirst) compactor.request();
  const stops = new StopHandler();
  const answered = (finishReason: "stop" | "stall", answer: string): Promise<NodeOutcome> | undefined => {
    const end = shaper.end(finishReason, answer);
    if ("finishReason" in end) return finish(end);
    emit(makeEvent(who, "warning", { message: `asking again: ${end.error}`, code: "invalid_output" }));
    append({ role: "user", content: end.reask });
    return undefined;
  };
  let raiseLimit = false;
  let nudged = false;
  let verifyFailures = 0;
  const limitReason = (): Finish | undefined =>
    run.signal.aborted
      ? { finishReason: run.timedOut() ? "timeout" : "aborted", answer: bestAnswer }
      : undefined;
  const verify = () =>
    runVerifyCommands(spec.verify ?? [], {
      cwd: options.workspace.root,
      timeoutMs: limits.verifyTimeoutMs ?? 120_000,
      signal: run.signal,
      who,
      emit,
      gate: options.gate,
      origin: specOrigin(spec),
      sandbox: options.workspace.sandbox,
    });
  /** Ends the run when verification cannot pass: not approved, `--on-ask fail`, or after a stall. */
  const unverified = (failure: VerifyFailure): Promise<NodeOutcome> => {
    const end = limitReason() ?? unverifiedFinish(failure, spec.name, bestAnswer);
    if (failure.kind === "approval_needed" && !run.signal.aborted) approvalError = failure.error;
    if (end.error) emit(makeEvent(who, "error", { message: end.error.message, kind: end.error.kind }));
    return finish(end);
  };
  /** A stall ends in a forced answer: a success only when the verify commands pass too. */
  const finishStalled = async (): Promise<NodeOutcome> => {
    const verified = await verify();
    return verified.ok ? (answered("stall", bestAnswer) as Promise<NodeOutcome>) : unverified(verified);
  };

  for (let turn = 1; ; turn++) {
    const stopped = limitReason();
    if (stopped) return finish(stopped);
    if (turn - turnBase > maxTurns) return finish({ finishReason: "max_turns", answer: bestAnswer });
    const over = shared.tracker.exceeded(who.agent);
    if (over) {
      emit(
        makeEvent(who, "warning", {
          message: describeBudget(over),
          code: "budget",
        }),
      );
      return finish({ finishReason: "budget", answer: bestAnswer });
    }

    // Plan: compact past the threshold; elide old tool results only as a last resort (it rewrites history).
    const compacted = await compactor.maybeCompact(messages);
    if (compacted) messages.splice(0, messages.length, ...compacted);
    const elideAt = compactor.failed ? ELIDE_THRESHOLD : LAST_RESORT_ELIDE_THRESHOLD;
    const elided = elideOldToolResults(messages, {
      system,
      tools,
      limitTokens: Math.floor(info.contextWindow * elideAt),
      meter,
    });
    if (elided.elided > 0) {
      shared.log.contextCut(who.agent);
      messages.splice(0, messages.length, ...elided.messages);
      emit(
        makeEvent(who, "warning", { message: `elided ${elided.elided} old tool results`, code: "elided" }),
      );
    }
    const planned = await planTurn(
      {
        model,
        system,
        messages: [...messages],
        tools,
        signal: run.signal,
        ...(raiseLimit ? { maxOutputTokens: info.maxOutputTokens } : {}),
        ...reasoningEffortFor(spec, model),
        ...shaper.request(),
      },
      options.stream,
      who,
      emit,
      turn,
    );
    shared.tracker.add(who.agent, planned.usage, info);
    compactor.record(planned.usage);
    shared.log.turn(who.agent);
    if (!planned.ok) {
      const partial = planned.partial ? assistantText(planned.partial).trim() : "";
      if (partial) bestAnswer = partial;
      const stoppedNow = limitReason();
      if (stoppedNow) return finish(stoppedNow);
      emit(makeEvent(who, "error", { message: planned.error.message, kind: planned.error.kind }));
      return finish({
        finishReason: "provider_error",
        answer: bestAnswer,
        error: { kind: planned.error.kind, message: planned.error.message },
      });
    }
    // Stop reasons that cut the reply (see stop-reasons.ts): continue, re-send, compact, or end clearly.
    const stop = stops.decide(planned.stopReason, planned.message);
    raiseLimit = false;
    if (stop.action === "finish") {
      if (stop.keep) append(stop.keep);
      return finish({ finishReason: stop.finishReason, answer: stops.partial().trim() || bestAnswer });
    }
    if (stop.action !== "accept") {
      emit(makeEvent(who, "warning", { message: stop.reason, code: stop.code }));
      if (stop.action === "compact") {
        // A full context window: summarise the older turns first; elide old results when that cannot help.
        compactor.request("context_window");
        const compacted =
          (await compactor.maybeCompact(messages)) ?? compactForRetry(messages, { system, tools, meter });
        if (!compacted) return finish({ finishReason: "context_window", answer: bestAnswer });
        shared.log.contextCut(who.agent);
        messages.splice(0, messages.length, ...compacted);
      } else {
        if (stop.keep) append(stop.keep);
        if (stop.note) append({ role: "user", content: stop.note });
        raiseLimit = stop.raiseLimit;
      }
      bestAnswer = stops.partial().trim() || bestAnswer;
      continue;
    }
    const message = withTextToolCalls(planned.message, toolNames, who, emit, turn);
    append(message);
    const text = stops.answer(assistantText(message)).trim();
    if (text) bestAnswer = text;
    if (planned.stopReason === "refusal") return finish({ finishReason: "refusal", answer: bestAnswer });
    const calls = assistantToolCalls(message);

    if (calls.length === 0) {
      if (nudged) {
        if (escalate(turn)) continue;
        return finishStalled();
      }
      const verified = await verify();
      if (!verified.ok) {
        if (verified.kind !== "failed") return unverified(verified);
        if (run.signal.aborted) continue;
        verifyFailures++;
        if (verifyFailures >= (limits.maxVerifyAttempts ?? 3)) return unverified(verified);
        append({ role: "user", content: verifyFailureMessage(verified) });
        continue;
      }
      const done = answered("stop", text || bestAnswer);
      if (done) return done;
      continue;
    }

    if (nudged) {
      // Told to answer without tools and still calling them: close the calls and end with a stall.
      for (const call of calls) append(notRunResult(call, "not run: you were told to answer without tools"));
      if (escalate(turn)) continue;
      return finishStalled();
    }

    // Act.
    const { results, approvalError: needed } = await actOnCalls(calls, actContext);
    for (const r of results) append(r.message);
    shared.log.results(who, results);
    if (needed) {
      approvalError = needed;
      emit(makeEvent(who, "error", { message: needed.message, kind: "approval" }));
      return finish({
        finishReason: "approval_needed",
        answer: bestAnswer,
        error: { kind: "approval", message: needed.message },
      });
    }

    // Verify.
    judgeResults(results, who, emit, learn);
    const mutating = (name: string): boolean =>
      actContext.subAgents.has(name) || actContext.primitives.get(name)?.readOnly === false;
    const repeated = stall.repeatedCall(
      results.map((r, i) => ({
        call: calls[i] as (typeof calls)[number],
        result: r.message.content,
        mutated: r.outcome === "ok" && mutating(r.message.toolName),
      })),
    );
    const sameResults = stall.recordResults(results.map((r) => r.message));
    if ((repeated || sameResults) && !run.signal.aborted) {
      const why = repeated ? `repeated call to ${repeated.name}` : "three identical results in a row";
      emit(makeEvent(who, "warning", { message: `stall detected: ${why}`, code: "stall" }));
      append({ role: "user", content: STALL_NUDGE });
      nudged = true;
    }
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The reasoning effort of an agent's model calls: the spec's, else the tier's from config, else none
 * (the model's default). */
function reasoningEffortFor(spec: AgentSpec, model: ModelRef): Pick<ModelRequest, "reasoningEffort"> {
  const effort = spec.reasoning_effort ?? model.reasoningEffort;
  return effort !== undefined ? { reasoningEffort: effort } : {};
}
