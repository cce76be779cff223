import type {
  DenialInfo,
  EmitFn,
  Message,
  ModelFamily,
  ModelInfo,
  ModelRef,
  StreamFn,
  ToolDefinition,
} from "../kernel/index.ts";
import type { SessionWorktree } from "../kernel/run-events/events.ts";
import type { Redactor } from "../kernel/text/redact.ts";
import type { Effect, GateCheck, GateOutcome, PolicyRequest } from "../policy/types.ts";
import type { Checkpointer } from "../tools/checkpoints/checkpointer.ts";
import type { PrimitiveName, Tool } from "../tools/types.ts";
import type { Workspace } from "../tools/workspace.ts";
import type { ToolHooks } from "./hooks/hooks.ts";
import type { OutputSchema } from "./loop/output-schema.ts";
import type { ProjectInstructions } from "./spec/instructions.ts";
import type { SkillActivationRecord, SkillSession } from "./spec/skills/types.ts";
import type { AgentSpec } from "./spec/spec.ts";

/**
 * The approval channel the loop uses (structurally the policy layer's ApprovalGate). One gate is
 * shared by a whole session, so a child can never hold more permission than its parent.
 * An outcome with `stop` (`--on-ask fail`) ends the session with approval_needed.
 */
export interface ToolGate {
  check(call: GateCheck, signal: AbortSignal): Promise<GateOutcome>;
  /** A derived view for a sub-agent (same rules, grants and prompt queue); the same gate when absent. */
  child?(): ToolGate;
  /** A view with these allow rules added (an activated skill's `allowed-tools`); deny and ask rules still
   * win. Rules that do not parse come back in `invalid`. Absent: skills grant nothing. */
  withAllowRules?(rules: readonly string[]): { gate: ToolGate; invalid: string[] };
  /** What the rules say about a call, without asking anyone (a restore checks a skill is still allowed).
   * Absent: nothing is restored that needs it. */
  effectOf?(request: PolicyRequest): Effect;
  /**
   * A call to a tool this run does not offer: a refusal (a denial) when the gate withholds it on purpose
   * (`helper --tools` did not list `exec`), undefined when the name is simply unknown (a stumble).
   */
  unavailable?(tool: string): { message: string; denial: DenialInfo } | undefined;
}

/** The primitives offered for a list of capability names (src/tools/registry.ts toolDefinitionsFor). */
export type ToolsFor = (
  names: PrimitiveName[],
  family: ModelFamily,
) => { definitions: ToolDefinition[]; primitives: Map<string, Tool> };

/**
 * Where MCP tools come from (src/tools/mcp/servers.ts McpServers): the tools an agent's `mcp:`
 * capabilities name, by the name the model sees, starting their servers on first use. Problems (a
 * server that fails to start) go to `warn`; the agent runs on without those tools.
 */
export interface McpToolSource {
  toolsFor(
    capabilities: readonly string[],
    warn: (message: string) => void,
    signal: AbortSignal,
    /** Where the asking agent's spec comes from: a project spec of an untrusted project gets no server's
     * `trust` (its read-only tools ask like any other). */
    requester?: { fromProject: boolean },
  ): Promise<Map<string, Tool>>;
  /** What the started servers `capabilities` name say about using them, for the agent's system prompt. */
  instructionsFor?(capabilities: readonly string[]): string | undefined;
}

/** Limits of one run. Unset fields come from the spec's constraints (or have no bound). */
export interface RunLimits {
  maxTurns?: number;
  timeoutMs?: number;
  /** Deepest agent depth allowed below the root (the root is depth 0). */
  maxDepth?: number;
  /** Token budget for this agent's subtree (input + output + cache tokens of every model call). */
  tokenBudget?: number;
  /** Cost budget in USD for this agent's subtree. */
  costBudgetUsd?: number;
  /** Concurrent read-only tool calls and delegations per response (default 4). */
  concurrency?: number;
  /** Timeout of each `verify:` command (default 120 s). */
  verifyTimeoutMs?: number;
  /** How many failed verification rounds end the run with verify_failed (default 3). */
  maxVerifyAttempts?: number;
  /** Characters of one tool result the model receives (default MODEL_TEXT_LIMIT, src/tools/truncate.ts). */
  toolOutputChars?: number;
  /** Share of the context window (input tokens as last reported) past which the history is compacted
   * (default 0.8, config `defaults.compact_threshold`; src/agents/loop/context/compaction.ts). */
  compactThreshold?: number;
}

/** What every run of a session shares: dependencies injected once at the root and passed down. */
export interface AgentDeps {
  emit: EmitFn;
  stream: StreamFn;
  /** Resolves a spec's model name (tier, `provider:model` or id). May throw an AppError (missing key). */
  resolveModel: (name: string) => ModelRef;
  modelInfo: (ref: ModelRef) => ModelInfo;
  workspace: Workspace;
  gate: ToolGate;
  /** Every known spec by name, for delegation. */
  specs: ReadonlyMap<string, AgentSpec>;
  /** Primitive definitions (defaults to src/tools/registry.ts). */
  toolsFor?: ToolsFor;
  /** Redacts every tool result once, in the pipeline; defaults to `Redactor.fromEnv()`. */
  redactor?: Redactor;
  /** The session's hooks around tool calls and at the end (src/agents/hooks/hooks.ts); none when absent. */
  hooks?: ToolHooks;
  /** The session's MCP servers; without it an `mcp:` capability offers nothing. */
  mcp?: McpToolSource;
  /** The session's environment: where isolated sub-agents' worktrees go (`XDG_STATE_HOME`) and the PATH
   * git is found on (isolated-child.ts); defaults to `process.env`. */
  env?: Record<string, string | undefined>;
  /** `$XDG_STATE_HOME/agent/learn.jsonl`, or null to never write learn signals to disk. */
  learnFile?: string | null;
  now?: () => number;
  /** The session's project instructions (AGENTS.md, CLAUDE.md), added to every agent's system prompt
   * unless its spec says `instructions: false`; listed in session_start. */
  instructions?: ProjectInstructions;
  /** The session's checkpoints of the files tool calls change (docs/rewind.md); none when absent. Shared
   * by sub-agents, so their changes land in the same store. */
  checkpoints?: Checkpointer;
  /** The session's Agent Skills and the root conversation's activations (src/agents/spec/skills/); an
   * agent sees those its spec's `skills:` allows. Absent: no skills. */
  skills?: SkillSession;
}

/** Options of one agent run; see runAgent. */
export interface RunAgentOptions extends AgentDeps {
  spec: AgentSpec;
  goal: string;
  /**
   * The goal as the user typed it, when the model gets another text (`/name args` becomes the skill's
   * body): session_start carries it, so the screen, the transcript and `agent sessions` show what was
   * typed. The root's only; `goal` is what the model reads.
   */
  typedGoal?: string;
  hints?: string[];
  /** Earlier conversation to continue (resume): the goal is appended as a new user message. */
  history?: Message[];
  /** Model override for this agent (`--model`); children use their own spec's model. */
  model?: string;
  /** `--schema`: the JSON schema this agent's final answer must match (the top agent only). */
  outputSchema?: OutputSchema;
  limits?: RunLimits;
  signal?: AbortSignal;
  sessionId?: string;
  /** Marks session_start as a resumed session. */
  resumed?: boolean;
  /** The root only: the git worktree the session works in, recorded in session_start. */
  worktree?: SessionWorktree;
  /** Compact the given history before the first model call, whatever its size (a chat's `/compact`). */
  compactFirst?: boolean;
  /**
   * The root only: when it stalls on a tier below best, continue once on the next tier with the
   * conversation kept (a model_switch event). Off by default; `--no-fallback` keeps it off.
   */
  escalate?: boolean;
  /** The user's `/name args` (the root only): the skill is activated before the first turn. */
  activateSkill?: string;
  /**
   * A continued conversation's recorded activations (the root only; resume.ts reads them from the
   * transcript's `skill_activated` records): activated again before the first turn where today's skills
   * and rules still allow it.
   */
  restoredSkills?: readonly SkillActivationRecord[];
  /**
   * Plan mode (docs/plan-mode.md): only read-only tools (and sub-agents, which inherit it) are offered, no
   * `verify:` command runs, and the root's answer is a plan (`outputSchema` is the plan's schema).
   * Children keep it: childRunOptions passes it on.
   */
  planMode?: boolean;
}
