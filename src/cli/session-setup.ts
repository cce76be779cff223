/**
 * What `agent run` and `agent chat` build before the first model call, in one place: the workspace, config,
 * specs, rules, model client and the conversation to continue (`-c`, `--resume`). Each run of the root agent
 * then goes through {@link runRootTurn}, so a chat message runs exactly as `agent run` does.
 */
import type { ResumePoint } from "../agents/resume.ts";
import type { AgentSpec } from "../agents/spec.ts";
import { decideAuto, type TierChoice } from "../agents/tier-classifier.ts";
import type { McpToolSource, RunAgentOptions, RunLimits } from "../agents/types.ts";
import {
  type AgentIdentity,
  AppError,
  type EmitFn,
  type Message,
  makeEvent,
  Redactor,
  type RunResult,
} from "../kernel/index.ts";
import { createModelClient, type ModelClient } from "../llm/client.ts";
import type { ApprovalGate } from "../policy/gate.ts";
import { buildRuleSet } from "../policy/rules.ts";
import type { Rule } from "../policy/types.ts";
import type { McpServerConfig } from "../tools/mcp/types.ts";
import { chooseSandbox } from "../tools/sandbox.ts";
import { PRIMITIVE_NAMES } from "../tools/types.ts";
import { Workspace } from "../tools/workspace.ts";
import { type AgentConfig, loadConfig } from "./config.ts";
import { describeNotice } from "./helper-run.ts";
import { sessionMcpConfigs } from "./mcp-session.ts";
import { type Notice, projectOverrideNotices } from "./project-notices.ts";
import { loadProjectRules } from "./project-rules.ts";
import { parseLimitFlags } from "./run-flags.ts";
import { loadRunSpecs } from "./run-specs.ts";
import { sessionToolsFor } from "./run-tools.ts";
import { type SandboxFlags, sandboxSettings } from "./sandbox-flags.ts";
import { sandboxWorkspace } from "./sandbox-setup.ts";
import { type Continued, continuedSession } from "./session-continue.ts";
import type { CassetteFlags } from "./shared-flags.ts";

/** The flags `agent run` and `agent chat` share, as commander parses them. */
export interface SessionFlags extends SandboxFlags, CassetteFlags {
  agent?: string;
  /** `--tier`: fast, good, best or auto; `--model` overrides it. */
  tier?: string;
  model?: string;
  maxTurns?: string;
  timeout?: string;
  maxBudgetUsd?: string;
  maxTokens?: string;
  allow: string[];
  deny: string[];
  resume?: string;
  /** `-c/--continue`: the latest session of this workspace. */
  continue?: boolean;
  cwd?: string;
  /** False with `--no-fallback`. */
  fallback: boolean;
}

/** A session ready to run turns of its root agent. */
export interface SessionSetup {
  env: Record<string, string | undefined>;
  workspace: Workspace;
  config: AgentConfig;
  specs: ReadonlyMap<string, AgentSpec>;
  spec: AgentSpec;
  rules: Rule[];
  redactor: Redactor;
  client: ModelClient;
  limits: RunLimits;
  /** The root's identity in events. */
  who: AgentIdentity;
  /** Warnings to emit after the first session_start (project specs overriding user or built-in ones,
   * project MCP servers left out, an unavailable sandbox). */
  notices: Notice[];
  /** The MCP servers this session may use (user config, and a trusted project's); started lazily. */
  mcpServers: Record<string, McpServerConfig>;
  /** The conversation `-c` or `--resume` continues; undefined for a new session. */
  continued?: Continued & { point: ResumePoint };
  /** `--model` or else `--tier`: the top agent's model name instead of its spec's. */
  override?: string;
  /** A stalled root continues once on the next tier with its conversation (off with --no-fallback). */
  escalate: boolean;
  /** Where the client's notices (fallback, retries) go; set once the renderer exists. */
  setEmit(emit: EmitFn): void;
}

/** Builds a session from the flags; throws AppError for usage, config, spec and session problems. */
export async function setUpSession(
  flags: SessionFlags,
  command: "run" | "chat" = "run",
  firstGoal = "",
): Promise<SessionSetup> {
  const env = process.env;
  parseLimitFlags(flags); // bad flags are usage errors (exit 2) before anything else is read
  const opened = await openWorkspace(flags.cwd ?? process.cwd());
  const config = await loadConfig(env);
  const sandboxing = sandboxSettings(flags, config.sandbox);
  // bwrap is probed (a process start) while specs, rules and the model are worked out; awaited below.
  const probed = chooseSandbox(sandboxing, opened.roots, env);
  // Budgets the flags leave unset come from config `defaults`.
  const limits = {
    ...parseLimitFlags(flags, config.defaults),
    ...(config.defaults.compactThreshold !== undefined
      ? { compactThreshold: config.defaults.compactThreshold }
      : {}),
  };
  const continued = continuedSession(flags, opened.root, command);

  const agentName = flags.agent ?? continued?.point.agentName ?? config.defaults.agent ?? "root";
  const project = await loadProjectRules(opened.root);
  const mcp = sessionMcpConfigs(config, project, opened.root);
  const loaded = await loadRunSpecs(opened.root, env, { ...config, mcpServers: mcp.servers }, agentName);
  const spec = loaded.specs.get(agentName);
  if (!spec) {
    const known = [...loaded.specs.keys()].sort().join(", ");
    throw new AppError("usage", `unknown agent "${agentName}"; known agents: ${known}`);
  }

  const rules = buildRuleSet({
    user: { ...config.rules, ...(config.file ? { file: config.file } : {}) },
    flags: { allow: flags.allow, deny: flags.deny },
    project,
    knownTools: [...PRIMITIVE_NAMES, "mcp", ...[...loaded.specs.keys()].sort()],
  });

  let emit: EmitFn = () => {};
  const who: AgentIdentity = { agent: "root", name: spec.name, depth: 0 };
  const client = createModelClient({
    env,
    config,
    workspaceRoot: opened.root,
    fallback: flags.fallback !== false && config.defaults.fallback !== false,
    onNotice: (notice) => {
      if (notice.type === "fallback") {
        emit(
          makeEvent(who, "model_switch", {
            from: `${notice.from.providerName}:${notice.from.id}`,
            to: `${notice.to.providerName}:${notice.to.id}`,
            reason: `${notice.error.kind}: ${notice.error.message}`,
          }),
        );
      } else emit(makeEvent(who, "warning", { message: describeNotice(notice), code: "retry" }));
    },
    ...(flags.record !== undefined ? { record: flags.record } : {}),
    ...(flags.replay !== undefined ? { replay: flags.replay } : {}),
    ...(flags.replayLoose ? { replayLoose: true } : {}),
  });
  // Resolve the top agent's model now, so a missing key fails before a session is created (exit 3);
  // `auto` is decided per goal (topModel), here from the first one when it is known.
  const override = flags.model ?? flags.tier;
  client.resolve(decideAuto(override ?? spec.model, firstGoal).name);
  const sandboxed = sandboxWorkspace(opened, sandboxing, await probed);

  return {
    env,
    workspace: sandboxed.workspace,
    config,
    specs: loaded.specs,
    spec,
    rules,
    redactor: Redactor.fromEnv(env),
    client,
    limits,
    who,
    notices: [
      ...projectOverrideNotices(loaded),
      ...mcp.notices,
      ...(sandboxed.warning ? [{ code: "sandbox_unavailable", message: sandboxed.warning }] : []),
    ],
    mcpServers: mcp.servers,
    ...(override !== undefined ? { override } : {}),
    escalate: flags.fallback !== false && config.defaults.fallback !== false,
    ...(continued ? { continued } : {}),
    setEmit: (next) => {
      emit = next;
    },
  };
}

/** One run of the root agent on the session's conversation. */
export interface RootTurn {
  goal: string;
  emit: EmitFn;
  gate: ApprovalGate;
  signal: AbortSignal;
  sessionId: string;
  /** The conversation so far (empty for a new one). */
  history: Message[];
  /** Marks session_start as continuing the session. */
  resumed: boolean;
  /** Model override (`--model`, or `/model` in a chat). */
  model?: string;
  /** `--schema`: the JSON schema the final answer must match. */
  outputSchema?: RunAgentOptions["outputSchema"];
  /** The session's MCP servers (created with the session's gate; they outlive a chat's turns). */
  mcp?: McpToolSource;
}

/** Runs the root agent once, with its sub-agents, approvals and tools. */
export async function runRootTurn(setup: SessionSetup, turn: RootTurn): Promise<RunResult> {
  const { runAgent } = await import("../agents/run-agent.ts");
  const { loadInstructions } = await import("../agents/instructions.ts");
  // Read for every run, so an AGENTS.md edited between chat messages counts from the next one.
  const instructions = await loadInstructions({ workspaceRoot: setup.workspace.root, env: setup.env });
  const { client } = setup;
  return runAgent({
    instructions,
    spec: setup.spec,
    goal: turn.goal,
    specs: setup.specs,
    emit: turn.emit,
    stream: client.stream,
    resolveModel: (name) => client.resolve(name).ref,
    modelInfo: (ref) => client.info(ref),
    workspace: setup.workspace,
    gate: turn.gate,
    toolsFor: sessionToolsFor(setup.rules),
    ...(turn.mcp ? { mcp: turn.mcp } : {}),
    signal: turn.signal,
    sessionId: turn.sessionId,
    limits: setup.limits,
    ...(turn.outputSchema ? { outputSchema: turn.outputSchema } : {}),
    escalate: setup.escalate,
    ...(turn.model !== undefined ? { model: turn.model } : {}),
    ...(turn.history.length > 0 || turn.resumed ? { history: turn.history, resumed: turn.resumed } : {}),
  });
}

/**
 * The top agent's model for one goal: `--model`/`--tier` (or a chat's `/model`) else the spec's, with
 * `auto` decided from the goal as `agent helper --tier auto` does. `model` is set when it differs from
 * what the spec alone gives; `auto` describes the choice for the user.
 */
export function topModel(
  setup: SessionSetup,
  goal: string,
  override = setup.override,
): { model?: string; auto?: TierChoice } {
  const top = decideAuto(override ?? setup.spec.model, goal);
  return {
    ...(override !== undefined || top.auto ? { model: top.name } : {}),
    ...(top.auto ? { auto: top.auto } : {}),
  };
}

async function openWorkspace(dir: string): Promise<Workspace> {
  try {
    return await Workspace.open(dir);
  } catch (error) {
    throw new AppError("usage", `--cwd ${dir}: not a usable directory (${(error as Error).message})`);
  }
}
