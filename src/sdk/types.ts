/** The library's public shapes: what a session is made from, what a run takes, and what a session offers. */
import type { HooksConfig } from "../agents/hooks/hooks.ts";
import type { OutputSchema } from "../agents/loop/output-schema.ts";
import type { SkillActivationRecord } from "../agents/spec/skills/types.ts";
import type { AgentSpec } from "../agents/spec/spec.ts";
import type { RunLimits } from "../agents/types.ts";
import type {
  AgentEvent,
  ApprovalDecision,
  ApprovalRequest,
  Approver,
  Message,
  ProviderNotice,
  ResponseSchema,
  RunResult,
} from "../kernel/index.ts";
import type { SessionWorktree } from "../kernel/run-events/events.ts";
import type { Redactor } from "../kernel/text/redact.ts";
import type { ModelClient } from "../llm/client.ts";
import type { SandboxSettings } from "../tools/exec/sandbox-settings.ts";
import type { PrimitiveName } from "../tools/types.ts";
import type { Workspace } from "../tools/workspace.ts";
import type { AgentConfig } from "./config/config.ts";
import type { Notice } from "./project/project-notices.ts";
import type { ProjectConfig } from "./project/project-rules.ts";

/** Decides one approval request: a callback, or an Approver. */
export type ApproveFn = (
  request: ApprovalRequest,
  signal: AbortSignal,
) => ApprovalDecision | Promise<ApprovalDecision>;

export interface SessionOptions {
  /** The workspace directory (default: the current directory). */
  cwd?: string;
  /** An opened workspace (e.g. with a sandbox for exec and `verify:` commands); beats `cwd`. A workspace
   * handed in is used as it is: its sandbox (or none) is the caller's choice, and `sandbox` is ignored. */
  workspace?: Workspace;
  /** The sandbox of exec and `verify:` commands, laid over config `sandbox:` (as `--sandbox` is): by
   * default workspace-write under bubblewrap where it works, else unsandboxed with a `sandbox_unavailable`
   * warning; with `required: true` (here or in config) createSession refuses (AppError "config") instead. */
  sandbox?: SandboxSettings;
  /** Where keys, base URLs and config locations come from (default: `process.env`). */
  env?: Record<string, string | undefined>;
  /** The user config; read from `$XDG_CONFIG_HOME/agent/config.yaml` when absent. */
  config?: AgentConfig;
  /** The agents; default: built-in, user and project specs, as `agent run` loads them. */
  specs?: Iterable<AgentSpec>;
  /** Approval rules beside the user config's and the project's (as `--allow` / `--deny`). */
  rules?: { allow?: string[]; deny?: string[] };
  /** Answers what the rules leave to ask; default: refuse (like `--on-ask deny`). */
  approve?: ApproveFn | Approver;
  /** Receives every event, secrets redacted, as it happens. */
  onEvent?: (event: AgentEvent) => void;
  /** Receives every event before redaction, for in-process use only: a chat keeps its conversation exact
   * for the next run from it (redacting would corrupt, say, a reasoning item's encrypted content).
   * Never write these out. */
  onUnredactedEvent?: (event: AgentEvent) => void;
  /** Hooks beside the user config's (and a trusted project's). */
  hooks?: HooksConfig;
  /** Limits of every run (a run's own limits override them). */
  limits?: RunLimits;
  /** The session id events and hooks carry (default: a fresh id). */
  sessionId?: string;
  /** Cassettes: write every model exchange to `record`, or serve them from `replay`. */
  record?: string;
  replay?: string;
  /** Serve the `replay` cassette even when requests differ from the recorded ones (`--replay-loose`). */
  replayLoose?: boolean;
  /** False leaves out the project instructions (AGENTS.md, CLAUDE.md) that every agent's system prompt
   * otherwise gets, as in `agent run`. */
  instructions?: boolean;
  /** False leaves out Agent Skills (docs/skills.md): no catalog, no `skill` tool, no `/name`. */
  skills?: boolean;
  /** False keeps runs on the model they resolved to (like `--no-fallback`). */
  fallback?: boolean;
  /** Warnings to emit right after the first run's session_start (e.g. project overrides). */
  notices?: readonly Notice[];
  /** The redactor of events and tool output (default: from `env`, and the credentials config gives
   * MCP servers). */
  redactor?: Redactor;
  /** The workspace's project config (`.agent/config.yaml`: ask and deny rules, hooks, MCP servers) as
   * the caller already read it (`loadProjectRules`), so a command reads it once; `null`: none applies.
   * Read from the workspace when absent. */
  project?: ProjectConfig | null;
  /** Only these primitives, approved by being listed (`agent helper --tools`): a call to any other tool
   * is refused (decided_by `whitelist`), a deny rule still refuses, nothing asks, no MCP server starts. */
  toolWhitelist?: readonly PrimitiveName[];
  /** Keep checkpoints of the files tool calls change, in a shadow git repository under
   * `$XDG_STATE_HOME/agent/checkpoints` (docs/rewind.md); their `checkpoint` events name what each call
   * changed. Off unless set (`agent run` and `agent chat` turn it on). */
  checkpoints?: boolean;
  /** Takes the model client's notices (a fallback to another model, a retry) instead of the event
   * stream (`agent helper` prints them on stderr). */
  onNotice?: (notice: ProviderNotice) => void;
}

export interface RunOptions {
  /** The agent to run (default: config `defaults.agent`, else `root`). */
  agent?: string;
  /** Model override for that agent (tier, `provider:model` or id). */
  model?: string;
  hints?: string[];
  signal?: AbortSignal;
  limits?: RunLimits;
  /** Earlier conversation to continue (resume). */
  history?: Message[];
  resumed?: boolean;
  /**
   * The continued conversation's recorded skill activations (the `skills` of a transcript's resume point):
   * activated again where today's skills and rules allow. A conversation's text never activates anything.
   */
  restoredSkills?: readonly SkillActivationRecord[];
  /** The JSON schema the final answer must match (`--schema`), named (`{name, schema}`); compiled here
   * unless it already is. An invalid schema is an AppError("usage"). */
  outputSchema?: ResponseSchema | OutputSchema;
  /** Plan mode (docs/plan-mode.md): read-only tools only, and the answer is a plan (`RunResult.plan`);
   * nothing in the workspace changes. Not with `outputSchema` (an AppError "usage"). */
  plan?: boolean;
  /** A stalled run continues once on the next tier, with its conversation (off by default). */
  escalate?: boolean;
  /** Replaces the agent's system prompt for this run (`--system`). */
  systemPrompt?: string;
  /** The user message (from 1) this run answers, which its `checkpoint` records name; default: one more
   * than the session's last run. */
  turn?: number;
  /** The session id this run's events and hooks carry instead of the session's (a chat's `/clear`
   * starts a new transcript on the same session). */
  sessionId?: string;
  /** The git worktree the workspace lies in (`--worktree`), recorded in the transcript's session_start. */
  worktree?: SessionWorktree;
}

export interface Session {
  readonly id: string;
  readonly workspace: Workspace;
  readonly specs: ReadonlyMap<string, AgentSpec>;
  readonly redactor: Redactor;
  readonly client: ModelClient;
  /** Sets who answers approval requests from now on (e.g. a terminal prompt made after the session). */
  setApprover(approve: ApproveFn | Approver): void;
  /** Puts a question of the caller's own to whoever answers approvals now (a plan to carry out): as for the
   * gate's requests, a person asked is notified first (`notification` event, `on_notification` hooks). */
  ask(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision>;
  /** The skills the user can run as `/name args` (a chat's `/` menu lists them). */
  readonly skills: readonly { name: string; description: string; argumentHint?: string }[];
  /** The spec a run of `agent` would use; AppError("usage") naming the known agents otherwise. */
  spec(agent?: string): AgentSpec;
  /** Runs a goal to its end; every event goes to `onEvent` and to open `events()` iterators. */
  run(goal: string, options?: RunOptions): Promise<RunResult>;
  /** Stops the session's MCP servers (started by the runs that used them). */
  close(): Promise<void>;
  /** The events from now on, until the next run's session_end (inclusive). */
  events(): AsyncIterableIterator<AgentEvent>;
  /** Adds an event of the caller's own (an interruption notice, a compaction it asked for) to the
   * session's stream: redacted, then to `onEvent` and `events()`, like the runs' events. */
  emit(event: AgentEvent): void;
}
