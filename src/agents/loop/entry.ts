import { type AgentIdentity, makeEvent, modelFamily, type RunResult } from "../../kernel/index.ts";
import { Redactor } from "../../kernel/text/redact.ts";
import { toolDefinitionsFor } from "../../tools/registry.ts";
import { MODEL_TEXT_LIMIT } from "../../tools/truncate.ts";
import type { Tool } from "../../tools/types.ts";
import { systemPromptWith } from "../spec/instructions.ts";
import { catalogBlock, modelInvocable, skillsFor } from "../spec/skills/catalog.ts";
import { type AgentSpec, type LoadedSpec, mcpCapabilities, primitiveCapabilities } from "../spec/spec.ts";
import type { RunAgentOptions } from "../types.ts";
import { RunLog } from "./bookkeeping/activity-log.ts";
import { runSignal, type SessionShared } from "./bookkeeping/session-shared.ts";
import { UsageTracker } from "./bookkeeping/usage-tracker.ts";
import { COMPACT_THRESHOLD, Compactor } from "./context/compaction.ts";
import { repairHistory } from "./context/history.ts";
import { nextTier } from "./escalation.ts";
import { ContextMeter, StallDetector } from "./guards.ts";
import { defaultLearnFile, LearnRecorder } from "./learn.ts";
import { errorText, type Node, type NodeOutcome, nodeFail, startSession } from "./node.ts";
import { AnswerShaper } from "./output-schema.ts";
import { StopHandler } from "./stop-reasons.ts";
import { type DelegationContext, subAgentDefinitions, subAgentTool } from "./sub-agents.ts";
import { decideAuto } from "./tier-classifier.ts";
import { runTurns } from "./turns.ts";

/**
 * The agent loop: Perceive, Plan, Act, Verify, repeated until the model answers without tool calls
 * or a limit ends the run. A plain async function: every dependency is injected, nothing is kept at
 * module level, so recursive and parallel runs share nothing but what they are handed. This module sets
 * a run up (model, tools, children); turns.ts holds the phases.
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

/**
 * The options of a child run, derived from its parent's in one place: the same session dependencies
 * (stream, gate view, workspace, redactor, hooks, specs), its own spec, goal and history, the parent's
 * signal, and only the limits a child inherits.
 */
export function childRunOptions(
  parent: RunAgentOptions,
  child: { spec: AgentSpec; goal: string; hints: string[]; signal: AbortSignal },
): RunAgentOptions {
  const {
    history: _h,
    model: _m,
    resumed: _r,
    outputSchema: _o,
    escalate: _e,
    compactFirst: _c,
    activateSkill: _s,
    typedGoal: _t,
    limits,
    ...deps
  } = parent;
  const inherited = {
    concurrency: limits?.concurrency,
    verifyTimeoutMs: limits?.verifyTimeoutMs,
    toolOutputChars: limits?.toolOutputChars,
    compactThreshold: limits?.compactThreshold,
  };
  return { ...deps, ...child, gate: parent.gate.child?.() ?? parent.gate, limits: inherited };
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
    const node = newNode(options, who, shared, depthBound, run);
    return (await setUp(node)) ?? (await runTurns(node));
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

function newNode(
  options: RunAgentOptions,
  who: AgentIdentity,
  shared: SessionShared,
  depthBound: number,
  run: ReturnType<typeof runSignal>,
): Node {
  const { spec, emit } = options;
  const now = options.now ?? Date.now;
  const learnFile = spec.constraints.can_learn ? (options.learnFile ?? defaultLearnFile()) : null;
  const learnTo = options.learnFile === null ? null : learnFile;
  // `auto` (a flag or the spec) is decided from this agent's goal, as `agent helper --tier auto` does.
  const requested = decideAuto(options.model ?? spec.model, options.goal).name;
  const isRoot = who.depth === 0;
  const limits = options.limits ?? {};
  const node: Node = {
    options,
    who,
    shared,
    depthBound,
    run,
    limits,
    now,
    system: withSkillCatalog(
      systemPromptWith(spec.system_prompt, options.instructions, spec.instructions === false),
      options,
    ),
    learn: new LearnRecorder(who, emit, learnTo, shared.sessionId, now),
    messages: options.history ? repairHistory(options.history) : [],
    bestAnswer: "",
    modelName: requested,
    // `--schema` shapes the top agent's final answer only.
    shaper: new AnswerShaper(isRoot ? options.outputSchema : undefined),
    // A stalled root may continue once on the next tier (escalation.ts), with its conversation kept.
    escalateTo: isRoot && options.escalate === true ? nextTier(requested) : undefined,
    turnBase: 0,
    started: false,
    tools: new Map(),
    stall: new StallDetector(),
    meter: new ContextMeter(),
    stops: new StopHandler(),
    raiseLimit: false,
    nudged: false,
    verifyFailures: 0,
  };
  // The context window is the model's in use (it changes when a stalled root escalates).
  node.compactor = new Compactor(
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
    () => node.info?.contextWindow ?? 0,
  );
  if (options.compactFirst) node.compactor.request();
  return node;
}

/** Resolves the model and builds the tool registry; an outcome when the run cannot start. */
async function setUp(node: Node): Promise<NodeOutcome | undefined> {
  const { options, who, shared } = node;
  const { spec } = options;
  try {
    node.model = options.resolveModel(node.modelName);
    node.info = options.modelInfo(node.model);
    node.modelName = node.model.id;
  } catch (error) {
    shared.tracker.register({ ...who, model: node.modelName });
    if (who.depth === 0) startSession(node);
    return nodeFail(
      node,
      `cannot resolve model "${node.modelName}" for ${spec.name}: ${errorText(error)}`,
      "config",
    );
  }
  // A flag's budget beats the spec's; a child's spec budget bounds its subtree, and every ancestor's
  // budget still bounds it (usage-tracker.ts checks the whole chain).
  shared.tracker.register({
    ...who,
    model: node.model.id,
    tokenBudget: node.limits.tokenBudget ?? spec.constraints.max_tokens,
    costBudgetUsd: node.limits.costBudgetUsd ?? spec.constraints.max_cost_usd,
  });
  if (who.depth === 0) startSession(node);
  // The skill tool and activations load only in a session that has skills (a folder exists).
  const skills = options.skills ? await import("./skills/skill-tool.ts") : undefined;
  const problem = buildTools(node, skills);
  if (problem) return nodeFail(node, problem, "config");
  // The user's `/name args`: the goal already holds the skill's body (session-run.ts); its folder and grants
  // apply from the first turn.
  const invoked =
    who.depth === 0 && options.activateSkill
      ? options.skills?.set.skills.get(options.activateSkill)
      : undefined;
  if (invoked) skills?.activate(node, invoked, "user");
  // MCP tools: their servers start now, the first time an agent naming them runs (a failure is a warning).
  if (options.mcp) {
    const warn = (message: string) => options.emit(makeEvent(who, "warning", { message, code: "mcp" }));
    const fromProject = (spec as Partial<LoadedSpec>).source?.scope === "project";
    const mcpTools = await options.mcp.toolsFor(mcpCapabilities(spec), warn, node.run.signal, {
      fromProject,
    });
    for (const [name, tool] of mcpTools) node.tools.set(name, tool);
    // Set once, before the first turn: the prompt stays the same across turns (prompt caching).
    const serverNotes = options.mcp.instructionsFor?.(mcpCapabilities(spec));
    if (serverNotes !== undefined) node.system = `${node.system}\n\n${serverNotes}`;
  }
  return undefined;
}

/** The run's registry: its sub-agents (while depth allows), then its primitives. A problem's message. */
function buildTools(node: Node, skills?: typeof import("./skills/skill-tool.ts")): string | undefined {
  const { options, who, depthBound } = node;
  const { spec } = options;
  const toolsFor = options.toolsFor ?? toolDefinitionsFor;
  let primitives: Map<string, Tool>;
  try {
    primitives = toolsFor(primitiveCapabilities(spec), modelFamily(node.model!)).primitives;
  } catch (error) {
    return `cannot build the tools of ${spec.name}: ${errorText(error)}`;
  }
  const canSpawn = spec.constraints.can_spawn && who.depth < depthBound;
  const agents = subAgentDefinitions(spec, options.specs);
  if (canSpawn && agents.missing.length > 0)
    return `${spec.name} names unknown agents: ${agents.missing.join(", ")}`;
  if (!canSpawn && agents.definitions.length > 0) {
    const message = `${spec.name} is at max depth ${depthBound}: no sub-agents offered`;
    options.emit(makeEvent(who, "warning", { message }));
  }
  const delegation: DelegationContext = {
    who,
    emit: options.emit,
    specs: options.specs,
    counters: node.shared.counters,
    depthBound,
    runChild: (childSpec, goal, hints, child, childDepthBound) =>
      runNode(
        childRunOptions(options, { spec: childSpec, goal, hints, signal: node.run.signal }),
        child,
        node.shared,
        childDepthBound,
      ),
  };
  if (canSpawn)
    for (const d of agents.definitions)
      node.tools.set(d.name, subAgentTool(d, delegation) as unknown as Tool);
  for (const [name, tool] of primitives) node.tools.set(name, tool);
  const skill = skills?.skillTool(node, delegation);
  if (skill) node.tools.set(skill.name, skill as unknown as Tool);
  node.act = {
    who,
    emit: options.emit,
    gate: options.gate,
    signal: node.run.signal,
    workspace: options.workspace,
    redactor: options.redactor ?? Redactor.fromEnv(),
    ...(options.hooks ? { hooks: options.hooks } : {}),
    modelTextLimit: node.limits.toolOutputChars ?? MODEL_TEXT_LIMIT,
    now: node.now,
    tools: node.tools,
    concurrency: node.limits.concurrency ?? 4,
  };
  skills?.activationsFromHistory(node);
  skills?.restoreActivations(node);
  return undefined;
}

/** The system prompt with the skills catalog, when the spec allows skills and any is model-invocable. */
function withSkillCatalog(system: string, options: RunAgentOptions): string {
  const block = catalogBlock(modelInvocable(skillsFor(options.skills?.set, options.spec.skills)));
  return block === "" ? system : `${system}\n\n${block}`;
}
