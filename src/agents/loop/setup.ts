import { type AgentIdentity, inputLimit, makeEvent, modelFamily } from "../../kernel/index.ts";
import { Redactor } from "../../kernel/text/redact.ts";
import { toolDefinitionsFor } from "../../tools/registry.ts";
import { MODEL_TEXT_LIMIT } from "../../tools/truncate.ts";
import type { Tool } from "../../tools/types.ts";
import { systemPromptWith } from "../spec/instructions.ts";
import { catalogBlock, modelInvocable, skillsFor } from "../spec/skills/catalog.ts";
import { newActivationState } from "../spec/skills/types.ts";
import { type AgentSpec, type LoadedSpec, mcpCapabilities, primitiveCapabilities } from "../spec/spec.ts";
import type { RunAgentOptions } from "../types.ts";
import type { SessionShared } from "./bookkeeping/session-shared.ts";
import { COMPACT_THRESHOLD, Compactor } from "./context/compaction.ts";
import { repairHistory } from "./context/history.ts";
import { nextTier } from "./escalation.ts";
import { ContextMeter, StallDetector } from "./guards.ts";
import { keepPlannable } from "./plan-mode.ts";
import {
  type ActContext,
  errorText,
  failWith,
  type ModelInUse,
  type NodeOutcome,
  type Run,
  type RunBase,
  type Step,
  type TurnState,
} from "./run-state.ts";
import { StopHandler } from "./stop-reasons.ts";
import { type DelegationContext, subAgentDefinitions, subAgentTool } from "./sub-agents.ts";
import { decideAuto } from "./tier-classifier.ts";

/**
 * Setup, the phase before the first turn: resolves the model, registers the run's budgets, emits
 * session_start at the root, and builds the registry (sub-agents, primitives, the skill tool, MCP tools), the
 * act context, the compactor and the first turn state. A run that cannot start ends here, as an end step.
 */

/** Starts a run of `options` as `child`, sharing the session (run-loop.ts runNode). */
export type NodeRunner = (
  options: RunAgentOptions,
  who: AgentIdentity,
  shared: SessionShared,
  depthBound: number,
) => Promise<NodeOutcome>;

/** The skill machinery, loaded only in a session that has skills (a folder exists). */
type SkillModule = typeof import("./skills/skill-tool.ts");

/** Builds the run and its first turn state; an end step when the run cannot start. */
export async function setUp(
  base: RunBase,
  runNode: NodeRunner,
): Promise<Step<{ run: Run; state: TurnState }>> {
  const { options, who, shared, limits } = base;
  const { spec } = options;
  const isRoot = who.depth === 0;
  // `auto` (a flag or the spec) is decided from this agent's goal, as `agent helper --tier auto` does.
  const requested = decideAuto(options.model ?? spec.model, options.goal).name;
  const catalogued = withSkillCatalog(
    systemPromptWith(spec.system_prompt, options.instructions, spec.instructions === false),
    options,
  );
  const messages = options.history ? repairHistory(options.history) : [];
  let model: ModelInUse;
  try {
    const ref = options.resolveModel(requested);
    model = { ref, info: options.modelInfo(ref) };
  } catch (error) {
    shared.tracker.register({ ...who, model: requested });
    if (isRoot) startSession(base, requested);
    const message = `cannot resolve model "${requested}" for ${spec.name}: ${errorText(error)}`;
    return failWith(base, message, "config", "");
  }
  // A flag's budget beats the spec's; a child's spec budget bounds its subtree, and every ancestor's
  // budget still bounds it (usage-tracker.ts checks the whole chain).
  shared.tracker.register({
    ...who,
    model: model.ref.id,
    tokenBudget: limits.tokenBudget ?? spec.constraints.max_tokens,
    costBudgetUsd: limits.costBudgetUsd ?? spec.constraints.max_cost_usd,
  });
  if (isRoot) startSession(base, model.ref.id);
  const skills = options.skills ? await import("./skills/skill-tool.ts") : undefined;
  const registry = new Map<string, Tool>();
  const built = buildTools(base, model, registry, runNode, skills);
  if (typeof built === "string") return failWith(base, built, "config", "");
  const { act, activations } = built;
  // The user's `/name args`: the goal already holds the skill's body (session-run.ts); its folder and grants
  // apply from the first turn.
  const invoked =
    isRoot && options.activateSkill ? options.skills?.set.skills.get(options.activateSkill) : undefined;
  if (invoked) skills?.activate({ options, who, activations, act }, invoked, "user");
  const system = await addMcpTools(base, registry, catalogued);
  // Plan mode offers nothing that changes anything (plan-mode.ts); a child inherits it with its options.
  if (options.planMode) keepPlannable(registry);
  const state: TurnState = {
    messages,
    bestAnswer: "",
    model,
    raiseLimit: false,
    stall: new StallDetector(),
    nudged: false,
    verifyFailures: 0,
    // A stalled root may continue once on the next tier (escalation.ts), with its conversation kept.
    escalateTo: isRoot && options.escalate === true ? nextTier(requested) : undefined,
    turnBase: 0,
  };
  // The input limit is the model's in use (it changes when a stalled root escalates).
  const compactor = new Compactor(
    {
      who,
      emit: options.emit,
      stream: options.stream,
      resolveModel: options.resolveModel,
      modelInfo: options.modelInfo,
      signal: base.abort.signal,
      onUsage: (usage, summarizer) => shared.tracker.add(who.agent, usage, summarizer),
    },
    limits.compactThreshold ?? COMPACT_THRESHOLD,
    () => inputLimit(state.model.info),
  );
  if (options.compactFirst) compactor.request();
  const run: Run = {
    ...base,
    system,
    tools: registry,
    act,
    compactor,
    activations,
    stops: new StopHandler(),
    meter: new ContextMeter(),
  };
  return { next: "continue", run, state };
}

/** session_start, the root's first event. */
function startSession(base: RunBase, model: string): void {
  const { options, who, shared } = base;
  const instructed = options.spec.instructions !== false && (options.instructions?.files.length ?? 0) > 0;
  options.emit(
    makeEvent(who, "session_start", {
      sessionId: shared.sessionId ?? "",
      goal: options.typedGoal ?? options.goal,
      agentName: options.spec.name,
      model,
      cwd: options.workspace.root,
      ...(options.resumed ? { resumed: true } : {}),
      ...(instructed ? { instructions: options.instructions?.files.map((f) => f.path) ?? [] } : {}),
      ...(options.worktree ? { worktree: options.worktree } : {}),
    }),
  );
  for (const message of options.instructions?.warnings ?? [])
    options.emit(makeEvent(who, "warning", { message, code: "instructions" }));
}

/**
 * Fills the run's registry: its sub-agents (while depth allows), then its primitives, then the skill tool;
 * and builds the act context over it. A problem's message when the tools cannot be built.
 */
function buildTools(
  base: RunBase,
  model: ModelInUse,
  registry: Map<string, Tool>,
  runNode: NodeRunner,
  skills: SkillModule | undefined,
): { act: ActContext; activations: Run["activations"] } | string {
  const { options, who, depthBound, shared } = base;
  const { spec } = options;
  const toolsFor = options.toolsFor ?? toolDefinitionsFor;
  let primitives: Map<string, Tool>;
  try {
    primitives = toolsFor(primitiveCapabilities(spec), modelFamily(model.ref)).primitives;
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
    counters: shared.counters,
    depthBound,
    runChild: async (childSpec, goal, hints, child, childDepthBound) => {
      const childOptions = childRunOptions(options, {
        spec: childSpec,
        goal,
        hints,
        signal: base.abort.signal,
      });
      const start = (run: RunAgentOptions) => runNode(run, child, shared, childDepthBound);
      if (childSpec.isolation !== "worktree") return start(childOptions);
      // A child in a worktree of its own (isolated-child.ts), loaded only where a spec asks for one.
      const { runIsolatedChild } = await import("./isolated-child.ts");
      return runIsolatedChild(childOptions, child.agent, act, start);
    },
  };
  const act: ActContext = {
    who,
    emit: options.emit,
    gate: options.gate,
    signal: base.abort.signal,
    workspace: options.workspace,
    redactor: options.redactor ?? Redactor.fromEnv(),
    ...(options.hooks ? { hooks: options.hooks } : {}),
    ...(options.checkpoints ? { checkpoints: options.checkpoints } : {}),
    modelTextLimit: base.limits.toolOutputChars ?? MODEL_TEXT_LIMIT,
    now: base.now,
    tools: registry,
    concurrency: base.limits.concurrency ?? 4,
  };
  // A child's activations are its own; the root's live in the session, so a chat's later messages keep them.
  const activations = who.depth === 0 && options.skills ? options.skills.root : newActivationState();
  if (canSpawn)
    for (const d of agents.definitions) registry.set(d.name, subAgentTool(d, delegation) as unknown as Tool);
  for (const [name, tool] of primitives) registry.set(name, tool);
  if (skills) {
    const host = { options, who, activations, act };
    const skill = skills.skillTool(host, delegation);
    if (skill) registry.set(skill.name, skill as unknown as Tool);
    // What a chat's earlier messages activated, then what a continued session's transcript recorded.
    skills.restoreActivations(host);
    if (options.restoredSkills) skills.restoreRecordedActivations(host, options.restoredSkills);
  }
  return { act, activations };
}

/** MCP tools: their servers start now, the first time an agent naming them runs (a failure is a warning).
 * The system prompt with the servers' instructions. */
async function addMcpTools(base: RunBase, registry: Map<string, Tool>, system: string): Promise<string> {
  const { options, who } = base;
  const { spec } = options;
  if (!options.mcp) return system;
  const warn = (message: string) => options.emit(makeEvent(who, "warning", { message, code: "mcp" }));
  const fromProject = (spec as Partial<LoadedSpec>).source?.scope === "project";
  const mcpTools = await options.mcp.toolsFor(mcpCapabilities(spec), warn, base.abort.signal, {
    fromProject,
  });
  for (const [name, tool] of mcpTools) registry.set(name, tool);
  // Set once, before the first turn: the prompt stays the same across turns (prompt caching).
  const serverNotes = options.mcp.instructionsFor?.(mcpCapabilities(spec));
  return serverNotes !== undefined ? `${system}\n\n${serverNotes}` : system;
}

/** The system prompt with the skills catalog, when the spec allows skills and any is model-invocable. */
function withSkillCatalog(system: string, options: RunAgentOptions): string {
  const block = catalogBlock(modelInvocable(skillsFor(options.skills?.set, options.spec.skills)));
  return block === "" ? system : `${system}\n\n${block}`;
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
    restoredSkills: _rs,
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
