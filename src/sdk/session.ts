/**
 * The library entry (`import { createSession } from "agent"`), which `agent run`, `agent chat` and
 * `agent helper` use too (the one composition root): a session is a workspace, its agent specs, a model client, approval rules with an approver, MCP
 * servers, hooks, and an event stream that knows nothing of terminals. Goals run on it one after another.
 */
import { whitelistGate } from "../agents/helper-gate.ts";
import { mergeHooks } from "../agents/hooks/hooks.ts";
import { userInvocable } from "../agents/spec/skills/slash.ts";
import type { AgentSpec } from "../agents/spec/spec.ts";
import { checkpointsDir } from "../kernel/files/paths.ts";
import { AppError, DEFAULT_NOTIFY_AFTER_SECONDS } from "../kernel/index.ts";
import { didYouMean } from "../kernel/text/did-you-mean.ts";
import { Redactor } from "../kernel/text/redact.ts";
import { createModelClient } from "../llm/client.ts";
import { checkBaseUrlVars } from "../llm/endpoints.ts";
import { ApprovalGate } from "../policy/gate.ts";
import { buildRuleSet } from "../policy/rules.ts";
import { newSessionId } from "../session/session-id.ts";
import { hideSecretsFromEnviron } from "../tools/exec/hidden-environ.ts";
import { chooseSandbox } from "../tools/exec/sandbox.ts";
import type { SandboxSettings } from "../tools/exec/sandbox-settings.ts";
import { PRIMITIVE_NAMES } from "../tools/names.ts";
import { Workspace } from "../tools/workspace.ts";
import { SwitchableApprover } from "./approver.ts";
import { type AgentConfig, loadConfig } from "./config/config.ts";
import { idleTimeoutOption } from "./config/idle-timeout.ts";
import { EventQueue } from "./event-queue.ts";
import { mcpElicitation } from "./mcp-elicitation.ts";
import { mcpSampling } from "./mcp-sampling.ts";
import { createMcpServers, mcpSecrets, sessionMcpConfigs } from "./mcp-session.ts";
import { sessionNotifier } from "./notifications.ts";
import { type Notice, projectOverrideNotices } from "./project/project-notices.ts";
import { loadProjectRules, projectHooks, trustsProject } from "./project/project-rules.ts";
import { sandboxWorkspace } from "./sandbox-setup.ts";
import { noticeEvent, sessionEmit } from "./session-events.ts";
import { runGoal } from "./session-run.ts";
import { loadSessionSkills } from "./session-skills.ts";
import type { Session, SessionOptions } from "./types.ts";

export type { ApproveFn, RunOptions, Session, SessionOptions } from "./types.ts";

/** Creates a session. Throws AppError for config and spec problems (exit 3 in the CLI). */
export async function createSession(options: SessionOptions = {}): Promise<Session> {
  const env = options.env ?? process.env;
  checkBaseUrlVars(env);
  const config = options.config ?? (await loadConfig(env));
  const opened = options.workspace
    ? { workspace: options.workspace }
    : await sandboxedWorkspace(options.cwd ?? process.cwd(), { ...config.sandbox, ...options.sandbox }, env);
  const workspace = opened.workspace;
  // Without a sandbox, a command the agent runs could read this process's initial environment
  // (/proc/PID/environ): the keys' values there are blanked, process.env keeps them (hidden-environ.ts).
  if (workspace.sandbox === undefined) await hideSecretsFromEnviron(configuredKeyVariables(config));
  const { specs, notices: specNotices } = await sessionSpecs(options.specs, workspace.root, env);
  // Read once per command: a caller that read it already (to check its specs' MCP servers) hands it in.
  const project =
    options.project === undefined ? await loadProjectRules(workspace.root) : (options.project ?? undefined);
  const whitelist = options.toolWhitelist;
  const skills =
    options.skills === false
      ? undefined
      : await loadSessionSkills(workspace.root, env, trustsProject(config.trustedProjects, workspace.root));
  // MCP servers and hooks: the user config's, and a trusted project's (servers ask before they start).
  // A whitelist session (`agent helper --tools`) starts no MCP server.
  const mcp = whitelist ? { servers: {}, notices: [] } : sessionMcpConfigs(config, project, workspace.root);
  const trusted = projectHooks(project, workspace.root, config.trustedProjects);
  const rules = buildRuleSet({
    user: { ...config.rules, ...(config.file ? { file: config.file } : {}) },
    flags: { allow: options.rules?.allow ?? [], deny: options.rules?.deny ?? [] },
    project,
    // A whitelist session has no agents or servers to name, so its rules are not checked against them.
    ...(whitelist
      ? {}
      : {
          knownTools: [...PRIMITIVE_NAMES, "mcp", "skill", ...[...specs.keys()].sort()],
          mcpServers: Object.keys(mcp.servers),
        }),
  });
  const redactor = options.redactor ?? Redactor.fromEnv(env, mcpSecrets(mcp.servers));
  const queue = new EventQueue();
  const emit = sessionEmit(options, redactor, queue, [
    ...(options.notices ?? []),
    ...specNotices,
    ...(opened.warning ? [{ code: "sandbox_unavailable", message: opened.warning }] : []),
    ...mcp.notices,
    ...(trusted.notice ? [{ message: trusted.notice, code: "hooks" }] : []),
    ...(skills?.set.warnings ?? []).map((message) => ({ message, code: "skills" })),
  ]);
  const root = { agent: "root", name: "root", depth: 0 };
  const client = await createModelClient({
    env,
    config,
    workspaceRoot: workspace.root,
    fallback: options.fallback !== false && config.defaults.fallback !== false,
    onNotice: options.onNotice ?? ((notice) => emit(noticeEvent(notice, root))),
    ...(options.record !== undefined ? { record: options.record } : {}),
    ...(options.replay !== undefined ? { replay: options.replay } : {}),
    ...(options.replayLoose ? { replayLoose: true } : {}),
    ...idleTimeoutOption(config, env),
  });
  const approver = new SwitchableApprover(options.approve);
  const approvals = new ApprovalGate({ rules, approver, emit });
  const gate = whitelist ? whitelistGate(whitelist, rules) : approvals;
  const mcpServers = await createMcpServers(
    mcp.servers,
    approvals,
    root,
    {
      root: workspace.root,
      projectTrusted: trustsProject(config.trustedProjects, workspace.root),
      ...(config.file !== undefined ? { configFile: config.file } : {}),
    },
    { sample: mcpSampling(client, approvals, root), elicit: mcpElicitation(approver) },
    // OAuth tokens, read from their store or refreshed mid-run, are secrets from that moment on.
    (values) => redactor.add(values),
  );
  const spec = (agent?: string): AgentSpec => {
    const name = agent ?? config.defaults.agent ?? "root";
    const found = specs.get(name);
    if (found) return found;
    const names = [...specs.keys()].sort();
    throw new AppError(
      "usage",
      `unknown agent "${name}"${didYouMean(name, names)}; known agents: ${names.join(", ")}`,
    );
  };
  const hooks = mergeHooks([config.hooks, trusted.hooks, options.hooks]);
  // The run going on names the session id hooks see (a chat's `/clear` starts another transcript).
  let currentSessionId: string | undefined;
  const notifier = sessionNotifier({
    emit,
    who: root,
    ...(hooks ? { hooks } : {}),
    cwd: workspace.root,
    env,
    redactor,
    sessionId: () => currentSessionId ?? parts.id,
  });
  approver.notify = notifier.notify;
  const parts = {
    id: options.sessionId ?? newSessionId(),
    env,
    workspace,
    specs,
    spec,
    client,
    gate,
    rules,
    redactor,
    emit,
    ...(mcpServers ? { mcp: mcpServers } : {}),
    ...(hooks ? { hooks } : {}),
    limits: {
      ...(config.defaults.compactThreshold !== undefined
        ? { compactThreshold: config.defaults.compactThreshold }
        : {}),
      ...options.limits,
    },
    instructions: options.instructions !== false,
    ...(skills ? { skills } : {}),
    ...(options.checkpoints ? { checkpointsDir: checkpointsDir(env) } : {}),
    turns: 0,
    notify: notifier.notify,
    notifyAfterSeconds: config.notifications?.afterSeconds ?? DEFAULT_NOTIFY_AFTER_SECONDS,
  };
  return {
    id: parts.id,
    workspace,
    specs,
    redactor,
    client,
    spec,
    skills: userInvocable(skills?.set).map((s) => ({
      name: s.name,
      description: s.description,
      ...(s.argumentHint ? { argumentHint: s.argumentHint } : {}),
    })),
    setApprover: (approve) => approver.set(approve),
    ask: (request, signal) => approver.decide(request, signal),
    run: (goal, runOptions = {}) => {
      currentSessionId = runOptions.sessionId ?? parts.id;
      return runGoal(parts, goal, runOptions);
    },
    events: () => queue.iterate(),
    emit,
    async close() {
      await notifier.settled();
      await mcpServers?.closeAll();
    },
  };
}

/**
 * The workspace at `cwd` with the sandbox the settings ask for, as `agent run` opens it
 * (sdk/sandbox-setup.ts): unavailable is a warning, or a config error when required.
 */
async function sandboxedWorkspace(
  cwd: string,
  settings: SandboxSettings,
  env: Record<string, string | undefined>,
): Promise<{ workspace: Workspace; warning?: string }> {
  const workspace = await Workspace.open(cwd);
  return sandboxWorkspace(workspace, settings, await chooseSandbox(settings, workspace.roots, env));
}

/**
 * The session's specs: the caller's, or built-in, user and project specs as `agent run` loads them, with
 * the same `project_override` warning for each project spec that hides a user or built-in agent (a
 * caller handing its own specs announces what it wants).
 */
async function sessionSpecs(
  given: Iterable<AgentSpec> | undefined,
  workspaceRoot: string,
  env: Record<string, string | undefined>,
): Promise<{ specs: ReadonlyMap<string, AgentSpec>; notices: Notice[] }> {
  if (given) return { specs: new Map([...given].map((s) => [s.name, s])), notices: [] };
  // The spec loader (YAML, the built-in specs) loads only for a session not handed its specs.
  const { loadSpecs, specAppError } = await import("../agents/spec/spec-loader.ts");
  const loaded = await loadSpecs({ workspaceRoot, env });
  if (loaded.errors.length > 0) throw specAppError(loaded.errors);
  return { specs: loaded.specs, notices: projectOverrideNotices(loaded) };
}

/** The key variables config names for its providers (`api_key_env`), besides the secret-looking ones. */
function configuredKeyVariables(config: AgentConfig): string[] {
  return Object.values(config.providers).flatMap((provider) =>
    provider.apiKeyEnv !== undefined ? [provider.apiKeyEnv] : [],
  );
}
