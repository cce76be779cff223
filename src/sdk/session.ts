/**
 * The library entry (`import { createSession } from "agent"`), which `agent run` uses too: a session is a
 * workspace, its agent specs, a model client, approval rules with an approver, hooks, and an event stream
 * that knows nothing of terminals. Goals run on it one after another.
 */
import { type HooksConfig, loadHookRunner, mergeHooks } from "../agents/hooks.ts";
import type { ProjectInstructions } from "../agents/instructions.ts";
import type { OutputSchema } from "../agents/output-schema.ts";
import type { AgentSpec } from "../agents/spec.ts";
import type { RunLimits } from "../agents/types.ts";
import { type AgentConfig, loadConfig } from "../cli/config.ts";
import { createMcpServers, mcpSecrets, sessionMcpConfigs } from "../cli/mcp-session.ts";
import { emitNoticesAfterStart, type Notice } from "../cli/project-notices.ts";
import { loadProjectRules, projectHooks } from "../cli/project-rules.ts";
import { sessionToolsFor } from "../cli/run-tools.ts";
import {
  type AgentEvent,
  AppError,
  type ApprovalDecision,
  type ApprovalRequest,
  type Approver,
  type EmitFn,
  type Message,
  makeEvent,
  type ProviderNotice,
  Redactor,
  type ResponseSchema,
  type RunResult,
} from "../kernel/index.ts";
import { createModelClient, type ModelClient, modelDeps } from "../llm/client.ts";
import { describeNotice } from "../llm/notice-text.ts";
import { flagApprover } from "../policy/approvers.ts";
import { ApprovalGate } from "../policy/gate.ts";
import { buildRuleSet } from "../policy/rules.ts";
import { redactingEmit } from "../session/redacting-emit.ts";
import { newSessionId } from "../session/session-id.ts";
import { PRIMITIVE_NAMES } from "../tools/names.ts";
import { Workspace } from "../tools/workspace.ts";
import { EventQueue } from "./event-queue.ts";

/** Decides one approval request: a callback, or an Approver. */
export type ApproveFn = (
  request: ApprovalRequest,
  signal: AbortSignal,
) => ApprovalDecision | Promise<ApprovalDecision>;

export interface SessionOptions {
  /** The workspace directory (default: the current directory). */
  cwd?: string;
  /** An opened workspace (e.g. with a sandbox for exec and `verify:` commands); beats `cwd`. */
  workspace?: Workspace;
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
  /** False keeps runs on the model they resolved to (like `--no-fallback`). */
  fallback?: boolean;
  /** Warnings to emit right after the first run's session_start (e.g. project overrides). */
  notices?: readonly Notice[];
  /** The redactor of events and tool output (default: from `env`, and the credentials config gives
   * MCP servers). */
  redactor?: Redactor;
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
  /** The JSON schema the final answer must match (`--schema`), named (`{name, schema}`); compiled here
   * unless it already is. An invalid schema is an AppError("usage"). */
  outputSchema?: ResponseSchema | OutputSchema;
  /** A stalled run continues once on the next tier, with its conversation (off by default). */
  escalate?: boolean;
  /** Replaces the agent's system prompt for this run (`--system`). */
  systemPrompt?: string;
  /** The session id this run's events and hooks carry instead of the session's (a chat's `/clear`
   * starts a new transcript on the same session). */
  sessionId?: string;
}

export interface Session {
  readonly id: string;
  readonly workspace: Workspace;
  readonly specs: ReadonlyMap<string, AgentSpec>;
  readonly redactor: Redactor;
  readonly client: ModelClient;
  /** Sets who answers approval requests from now on (e.g. a terminal prompt made after the session). */
  setApprover(approve: ApproveFn | Approver): void;
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

/** Creates a session. Throws AppError for config and spec problems (exit 3 in the CLI). */
export async function createSession(options: SessionOptions = {}): Promise<Session> {
  const env = options.env ?? process.env;
  const workspace = options.workspace ?? (await Workspace.open(options.cwd ?? process.cwd()));
  const config = options.config ?? (await loadConfig(env));
  const specs = await sessionSpecs(options.specs, workspace.root, env);
  const project = await loadProjectRules(workspace.root);
  // MCP servers: the user config's, and a trusted project's (each asks before it starts).
  const mcp = sessionMcpConfigs(config, project, workspace.root);
  const rules = buildRuleSet({
    user: { ...config.rules, ...(config.file ? { file: config.file } : {}) },
    flags: { allow: options.rules?.allow ?? [], deny: options.rules?.deny ?? [] },
    project,
    knownTools: [...PRIMITIVE_NAMES, "mcp", ...[...specs.keys()].sort()],
  });
  const id = options.sessionId ?? newSessionId();
  const redactor = options.redactor ?? Redactor.fromEnv(env, mcpSecrets(mcp.servers));
  const queue = new EventQueue();
  const trusted = projectHooks(project, workspace.root, config.trustedProjects);
  const notices = [
    ...(options.notices ?? []),
    ...mcp.notices,
    ...(trusted.notice ? [{ message: trusted.notice, code: "hooks" }] : []),
  ];
  const redacted = redactingEmit(redactor, (event) => {
    options.onEvent?.(event);
    queue.push(event);
  });
  const tap = options.onUnredactedEvent;
  const emit: EmitFn = emitNoticesAfterStart(
    tap
      ? (event) => {
          tap(event);
          redacted(event);
        }
      : redacted,
    notices,
  );
  const root = (agent: string) => ({ agent: "root", name: agent, depth: 0 });
  const client = createModelClient({
    env,
    config,
    workspaceRoot: workspace.root,
    fallback: options.fallback !== false && config.defaults.fallback !== false,
    onNotice: (notice) => emit(noticeEvent(notice, root("root"))),
    ...(options.record !== undefined ? { record: options.record } : {}),
    ...(options.replay !== undefined ? { replay: options.replay } : {}),
    ...(options.replayLoose ? { replayLoose: true } : {}),
  });
  let approver = approverOf(options.approve);
  // Delegates to the current approver, so the CLI can hand over its terminal prompt once it exists.
  const delegating = {
    get source() {
      return (approver as { source?: unknown }).source;
    },
    get why() {
      return (approver as { why?: unknown }).why;
    },
    decide: (request: ApprovalRequest, signal: AbortSignal) => approver.decide(request, signal),
  };
  const gate = new ApprovalGate({ rules, approver: delegating, emit });
  const mcpServers = await createMcpServers(mcp.servers, gate, root("root"), workspace.root);
  const hookList = mergeHooks([config.hooks, trusted.hooks, options.hooks]);
  const toolsFor = sessionToolsFor(rules);
  // Project instructions are read for every run, so an AGENTS.md edited between a chat's messages
  // counts from the next one.
  const loadedInstructions = async (): Promise<ProjectInstructions | undefined> => {
    if (options.instructions === false) return undefined;
    const { loadInstructions } = await import("../agents/instructions.ts");
    return loadInstructions({ workspaceRoot: workspace.root, env });
  };
  const configLimits: RunLimits =
    config.defaults.compactThreshold !== undefined
      ? { compactThreshold: config.defaults.compactThreshold }
      : {};
  const spec = (agent?: string): AgentSpec => {
    const name = agent ?? config.defaults.agent ?? "root";
    const found = specs.get(name);
    if (found) return found;
    const known = [...specs.keys()].sort().join(", ");
    throw new AppError("usage", `unknown agent "${name}"; known agents: ${known}`);
  };
  return {
    id,
    workspace,
    specs,
    redactor,
    client,
    spec,
    setApprover(approve) {
      approver = approverOf(approve);
    },
    events: () => queue.iterate(),
    emit,
    async close() {
      await mcpServers?.closeAll();
    },
    async run(goal, runOptions = {}) {
      const named = spec(runOptions.agent);
      const chosen =
        runOptions.systemPrompt !== undefined ? { ...named, system_prompt: runOptions.systemPrompt } : named;
      const projectInstructions = await loadedInstructions();
      const outputSchema = runOptions.outputSchema && (await compiledSchema(runOptions.outputSchema));
      const runId = runOptions.sessionId ?? id;
      const hooks = hookList
        ? await loadHookRunner({
            hooks: hookList,
            cwd: workspace.root,
            sessionId: runId,
            emit,
            who: root(chosen.name),
            redactor,
            env,
            ...(runOptions.signal ? { signal: runOptions.signal } : {}),
          })
        : undefined;
      const { runAgent } = await import("../agents/run-agent.ts");
      return runAgent({
        spec: chosen,
        goal,
        specs,
        emit,
        ...modelDeps(client),
        workspace,
        gate,
        toolsFor,
        redactor,
        sessionId: runId,
        limits: { ...configLimits, ...options.limits, ...runOptions.limits },
        ...(projectInstructions ? { instructions: projectInstructions } : {}),
        ...(hooks ? { hooks } : {}),
        ...(mcpServers ? { mcp: mcpServers } : {}),
        ...(runOptions.hints ? { hints: runOptions.hints } : {}),
        ...(runOptions.signal ? { signal: runOptions.signal } : {}),
        ...(runOptions.model !== undefined ? { model: runOptions.model } : {}),
        ...(runOptions.history ? { history: runOptions.history, resumed: runOptions.resumed ?? true } : {}),
        ...(outputSchema ? { outputSchema } : {}),
        ...(runOptions.escalate !== undefined ? { escalate: runOptions.escalate } : {}),
      });
    },
  };
}

async function sessionSpecs(
  given: Iterable<AgentSpec> | undefined,
  workspaceRoot: string,
  env: Record<string, string | undefined>,
): Promise<ReadonlyMap<string, AgentSpec>> {
  if (given) return new Map([...given].map((s) => [s.name, s]));
  const { loadSpecs, specAppError } = await import("../agents/spec-loader.ts");
  const loaded = await loadSpecs({ workspaceRoot, env });
  if (loaded.errors.length > 0) throw specAppError(loaded.errors);
  return loaded.specs;
}

/** A run's answer schema, compiled (with Ajv, loaded only then) unless the caller compiled it already. */
async function compiledSchema(schema: ResponseSchema | OutputSchema): Promise<OutputSchema> {
  if ("check" in schema) return schema;
  const { compileOutputSchema } = await import("../agents/output-schema.ts");
  try {
    return await compileOutputSchema(schema);
  } catch (error) {
    const why = (error as Error).message;
    throw new AppError("usage", `outputSchema ${schema.name}: not a valid JSON schema: ${why}`);
  }
}

function approverOf(approve: SessionOptions["approve"]): Approver {
  if (approve === undefined) return flagApprover("deny");
  if (typeof approve === "function") return { decide: async (request, signal) => approve(request, signal) };
  return approve;
}

function noticeEvent(
  notice: ProviderNotice,
  who: { agent: string; name: string; depth: number },
): AgentEvent {
  if (notice.type === "fallback") {
    return makeEvent(who, "model_switch", {
      from: `${notice.from.providerName}:${notice.from.id}`,
      to: `${notice.to.providerName}:${notice.to.id}`,
      reason: `${notice.error.kind}: ${notice.error.message}`,
    });
  }
  return makeEvent(who, "warning", { message: describeNotice(notice), code: "retry" });
}
