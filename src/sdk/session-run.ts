/** One goal run on a session: the session's shared parts plus what this run asks for. */
import { type HooksConfig, loadHookRunner } from "../agents/hooks/hooks.ts";
import type { OutputSchema } from "../agents/loop/output-schema.ts";
import { loadInstructions } from "../agents/spec/instructions.ts";
import { invokedSkill } from "../agents/spec/skills/slash.ts";
import type { AgentSpec } from "../agents/spec/spec.ts";
import type { RunAgentOptions, RunLimits, ToolGate } from "../agents/types.ts";
import { AppError, type EmitFn, type ResponseSchema, type RunResult } from "../kernel/index.ts";
import type { Redactor } from "../kernel/text/redact.ts";
import { type ModelClient, modelDeps } from "../llm/client.ts";
import type { Rule } from "../policy/types.ts";
import type { Checkpointer } from "../tools/checkpoints/checkpointer.ts";
import type { Workspace } from "../tools/workspace.ts";
import { announcingLongRuns, type Notify } from "./notifications.ts";
import type { SessionSkills } from "./session-skills.ts";
import type { RunOptions } from "./types.ts";

/** What every run of a session shares. */
export interface SessionParts {
  id: string;
  env: Record<string, string | undefined>;
  workspace: Workspace;
  specs: ReadonlyMap<string, AgentSpec>;
  spec(agent?: string): AgentSpec;
  client: ModelClient;
  /** The approval gate, or a whitelist session's gate (src/agents/helper-gate.ts). */
  gate: ToolGate;
  /** The session's rules (fetch reaches the local origins their allow rules name). */
  rules: readonly Rule[];
  /** The loop's primitives, configured from `rules`: made when the first goal runs, then shared. */
  toolsFor?: RunAgentOptions["toolsFor"];
  redactor: Redactor;
  emit: EmitFn;
  mcp?: RunAgentOptions["mcp"];
  /** Every configured hook (user config, a trusted project's, the caller's); undefined when none. */
  hooks?: HooksConfig;
  /** The session's limits (config defaults, then the caller's); a run's own override them. */
  limits: RunLimits;
  /** False leaves out the project instructions. */
  instructions: boolean;
  /** The session's skills; absent when no skill folder exists. */
  skills?: SessionSkills;
  /** Where checkpoints go when the session keeps them (docs/rewind.md); the store opens on first use. */
  checkpointsDir?: string;
  checkpoints?: Checkpointer;
  /** User messages the session has run (the last run's `turn`). */
  turns: number;
  /** Tells the user something needs them (notifications.ts). */
  notify: Notify;
  /** A run that took this long announces its end (`notifications.after_seconds`). */
  notifyAfterSeconds: number;
}

/** Runs a goal to its end on the session's parts. */
export async function runGoal(parts: SessionParts, typed: string, options: RunOptions): Promise<RunResult> {
  const named = parts.spec(options.agent);
  const prompted =
    options.systemPrompt !== undefined ? { ...named, system_prompt: options.systemPrompt } : named;
  if (options.plan && options.outputSchema)
    throw new AppError("usage", "--plan answers with a plan: it cannot be combined with --schema");
  // Plan mode (only when asked: its module loads then): read-only tools, the plan's instructions and schema.
  const planning = options.plan ? await import("../agents/loop/plan-mode.ts") : undefined;
  const spec = planning
    ? { ...prompted, system_prompt: `${prompted.system_prompt}\n\n${planning.PLAN_INSTRUCTIONS}` }
    : prompted;
  const sessionId = options.sessionId ?? parts.id;
  // `/name args`: the goal becomes the skill's body, the skill is activated before the first turn.
  const invoked = parts.skills ? invokedSkill(parts.skills.set, typed) : undefined;
  const goal = invoked
    ? // Only a `/name` goal needs the skill's activation text (skills are optional).
      (await import("../agents/loop/skills/skill-activation.ts")).userSkillGoal(invoked.skill, invoked.args)
    : typed;
  // Project instructions are read for every run, so an AGENTS.md edited between a chat's messages
  // counts from the next one.
  const instructions = parts.instructions
    ? await loadInstructions({
        workspaceRoot: parts.workspace.root,
        env: parts.env,
      })
    : undefined;
  const wanted = planning ? planning.PLAN_SCHEMA : options.outputSchema;
  const outputSchema = wanted && (await compiledSchema(wanted));
  const hooks = parts.hooks
    ? await loadHookRunner({
        hooks: parts.hooks,
        cwd: parts.workspace.root,
        sessionId,
        emit: parts.emit,
        who: { agent: "root", name: spec.name, depth: 0 },
        redactor: parts.redactor,
        env: parts.env,
        ...(options.signal ? { signal: options.signal } : {}),
      })
    : undefined;
  // The loop and the primitives load when a goal first runs: a session that runs none (a plain
  // `agent helper` call uses only its model client) never loads them.
  const [{ runAgent }, { sessionToolsFor }] = await Promise.all([
    import("../agents/loop/run-loop.ts"),
    import("./session-tools.ts"),
  ]);
  parts.toolsFor ??= sessionToolsFor(parts.rules);
  parts.turns = options.turn ?? parts.turns + 1;
  const checkpoints = await sessionCheckpoints(parts, sessionId);
  return runAgent({
    spec,
    goal,
    specs: parts.specs,
    emit: announcingLongRuns(parts.emit, parts.notify, parts.notifyAfterSeconds),
    ...modelDeps(parts.client),
    workspace: parts.workspace,
    env: parts.env,
    gate: parts.gate,
    toolsFor: parts.toolsFor,
    redactor: parts.redactor,
    sessionId,
    limits: { ...parts.limits, ...options.limits },
    ...(instructions ? { instructions } : {}),
    ...(hooks ? { hooks } : {}),
    ...(parts.mcp ? { mcp: parts.mcp } : {}),
    ...(checkpoints ? { checkpoints } : {}),
    ...(options.hints ? { hints: options.hints } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.model !== undefined ? { model: options.model } : {}),
    ...(options.history ? { history: options.history, resumed: options.resumed ?? true } : {}),
    ...(options.restoredSkills ? { restoredSkills: options.restoredSkills } : {}),
    ...(options.worktree ? { worktree: options.worktree } : {}),
    ...(outputSchema ? { outputSchema } : {}),
    ...(options.escalate !== undefined ? { escalate: options.escalate } : {}),
    ...(planning ? { planMode: true } : {}),
    ...(parts.skills ? { skills: parts.skills.forSession(sessionId) } : {}),
    // What the user typed is the run's goal on screen and in the transcript; the body goes to the model.
    ...(invoked ? { activateSkill: invoked.skill.name, typedGoal: typed } : {}),
  });
}

/** The session's checkpointer, made on its first run when the session keeps checkpoints; its turn set to
 * this run's. Loaded only then: a session without checkpoints never loads it. */
async function sessionCheckpoints(parts: SessionParts, sessionId: string): Promise<Checkpointer | undefined> {
  if (parts.checkpointsDir === undefined) return undefined;
  if (parts.checkpoints === undefined) {
    const { Checkpointer } = await import("../tools/checkpoints/checkpointer.ts");
    parts.checkpoints = new Checkpointer({
      dir: parts.checkpointsDir,
      workspaceRoot: parts.workspace.root,
      sessionId,
      ...(parts.env.PATH !== undefined ? { searchPath: parts.env.PATH } : {}),
    });
  }
  parts.checkpoints.turn = parts.turns;
  return parts.checkpoints;
}

/** A run's answer schema, compiled (with Ajv, loaded only then) unless the caller compiled it already. */
async function compiledSchema(schema: ResponseSchema | OutputSchema): Promise<OutputSchema> {
  if ("check" in schema) return schema;
  const { compileOutputSchema } = await import("../agents/loop/output-schema.ts");
  try {
    return await compileOutputSchema(schema);
  } catch (error) {
    const why = (error as Error).message;
    throw new AppError("usage", `outputSchema ${schema.name}: not a valid JSON schema: ${why}`);
  }
}
