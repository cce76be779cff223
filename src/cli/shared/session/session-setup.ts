/**
 * What `agent run` and `agent chat` build before the first model call, in one place: the flags' workspace
 * (sandboxed), specs and rules made into a library session (`createSession`, the same entry library users
 * get), and the conversation to continue (`-c`, `--resume`). Each run of the root agent then goes through
 * {@link runRootTurn}, so a chat message runs exactly as `agent run` does.
 */

import { realpathSync } from "node:fs";
import type { ResumePoint } from "../../../agents/loop/context/resume.ts";
import { decideAuto, type TierChoice } from "../../../agents/loop/tier-classifier.ts";
import type { SkillActivationRecord } from "../../../agents/spec/skills/types.ts";
import type { AgentSpec } from "../../../agents/spec/spec.ts";
import type { RunAgentOptions, RunLimits } from "../../../agents/types.ts";
import { sessionsDir, worktreesDir } from "../../../kernel/files/paths.ts";
import {
  type AgentEvent,
  type AgentIdentity,
  AppError,
  type Message,
  type RunResult,
} from "../../../kernel/index.ts";
import type { Redactor } from "../../../kernel/text/redact.ts";
import type { ModelClient } from "../../../llm/client.ts";
import { checkBaseUrlVars } from "../../../llm/endpoints.ts";
import { type AgentConfig, loadConfig } from "../../../sdk/config/config.ts";
import { sessionMcpConfigs } from "../../../sdk/mcp-session.ts";
import { projectOverrideNotices } from "../../../sdk/project/project-notices.ts";
import { loadProjectRules } from "../../../sdk/project/project-rules.ts";
import { sandboxWorkspace } from "../../../sdk/sandbox-setup.ts";
import { createSession, type Session } from "../../../sdk/session.ts";
import { openTranscript, type Transcript } from "../../../session/transcript.ts";
import { chooseSandbox } from "../../../tools/exec/sandbox.ts";
import { Workspace } from "../../../tools/workspace.ts";
import { parseLimitFlags } from "../flags/limit-flags.ts";
import { sandboxSettings } from "../flags/sandbox-flags.ts";
import type { SessionFlags } from "../flags/session-options.ts";
import { processRunIo, type RunIo } from "../io/command-io.ts";
import { loadRunSpecs } from "./run-specs.ts";
import { type Continued, continuedSession } from "./session-continue.ts";
import type { WorktreeRun } from "./worktree-session.ts";

export type { SessionFlags } from "../flags/session-options.ts";

/** A library session (sdk/session.ts) set up from the CLI's flags, ready to run turns of its root agent. */
export interface SessionSetup {
  session: Session;
  env: Record<string, string | undefined>;
  workspace: Workspace;
  config: AgentConfig;
  spec: AgentSpec;
  /** The root agent's identity in events of the caller's own (an interruption notice, a compaction). */
  who: AgentIdentity;
  redactor: Redactor;
  client: ModelClient;
  limits: RunLimits;
  /** The conversation `-c` or `--resume` continues; undefined for a new session. */
  continued?: Continued & { point: ResumePoint };
  /** `--model` or else `--tier`: the top agent's model name instead of its spec's. */
  override?: string;
  /** A stalled root continues once on the next tier with its conversation (off with --no-fallback). */
  escalate: boolean;
  /** The git worktree the session works in (`--worktree`, or a resumed worktree session's). */
  worktree?: WorktreeRun;
  /** Where the session's events go (redacted, in order), and optionally each event before redaction
   * (in-process only); set once the transcript and the view exist. */
  setSink(sink: (event: AgentEvent) => void, unredacted?: (event: AgentEvent) => void): void;
}

/**
 * Opens the session's transcript: the continued session's, or a new one under the session's id. A session
 * another process holds ("in use by process N": exit 2) or a state directory that cannot be written
 * (exit 3) ends the command before it starts: the session (its MCP servers, the sandbox probe) is closed,
 * then the error thrown, so nothing is left running.
 */
export async function openSessionTranscript(setup: SessionSetup): Promise<Transcript> {
  const { continued, redactor, session } = setup;
  try {
    return openTranscript({
      redactor,
      dir: sessionsDir(setup.env),
      ...(continued ? { sessionId: continued.sessionId } : { newId: session.id }),
    });
  } catch (error) {
    await session.close();
    throw error;
  }
}

/**
 * Builds a session from the flags; throws AppError for usage, config, spec and session problems. `io`:
 * the directory, environment and stderr (spec and transcript warnings) of the process or of a caller.
 */
export async function setUpSession(
  flags: SessionFlags,
  command: "run" | "chat" = "run",
  firstGoal = "",
  io: Pick<RunIo, "cwd" | "env" | "stderr"> = processRunIo(),
): Promise<SessionSetup> {
  const { env } = io;
  parseLimitFlags(flags); // bad flags are usage errors (exit 2) before anything else is read
  checkBaseUrlVars(env); // ANTHROPIC_BASE_URL=127.0.0.1:8080: one config error naming it (exit 3)
  const config = await loadConfig(env);
  const worktree = await sessionWorktree(flags, flags.cwd ?? io.cwd, env, config, io.stderr);
  const opened = await openWorkspace(worktree?.workspaceDir ?? flags.cwd ?? io.cwd, env);
  const sandboxing = sandboxSettings(flags, config.sandbox);
  // bwrap is probed (a process start) while specs, rules and the model are worked out; awaited below.
  const probed = chooseSandbox(sandboxing, opened.roots, env);
  const limits = parseLimitFlags(flags, config.defaults); // budgets the flags leave unset come from config
  const continued = continuedSession(flags, opened.root, command, env, io.stderr);

  const agentName = flags.agent ?? continued?.point.agentName ?? config.defaults.agent ?? "root";
  // Specs may name the MCP servers of the user config and of a trusted project (mcp-session.ts).
  // The project config is read here once and handed to createSession, which would otherwise read it again.
  const project = await loadProjectRules(opened.root);
  const mcp = sessionMcpConfigs(config, project, opened.root);
  const loaded = await loadRunSpecs(
    opened.root,
    env,
    { ...config, mcpServers: mcp.servers },
    agentName,
    io.stderr,
  );
  const sandboxed = sandboxWorkspace(opened, sandboxing, await probed);
  let sink: (event: AgentEvent) => void = () => {};
  let tap: ((event: AgentEvent) => void) | undefined;
  const session = await createSession({
    workspace: sandboxed.workspace,
    env,
    config,
    project: project ?? null,
    specs: loaded.specs.values(),
    rules: { allow: flags.allow ?? [], deny: flags.deny ?? [] },
    onEvent: (event) => sink(event),
    onUnredactedEvent: (event) => tap?.(event),
    notices: [
      ...projectOverrideNotices(loaded),
      ...(sandboxed.warning ? [{ code: "sandbox_unavailable", message: sandboxed.warning }] : []),
    ],
    fallback: flags.fallback !== false,
    // Checkpoints of the files the agent changes, for `/rewind` and `agent rewind` (docs/rewind.md).
    checkpoints: true,
    ...(continued ? { sessionId: continued.sessionId } : {}),
    ...(flags.record !== undefined ? { record: flags.record } : {}),
    ...(flags.replay !== undefined ? { replay: flags.replay } : {}),
    ...(flags.replayLoose ? { replayLoose: true } : {}),
  });
  const spec = session.spec(agentName);
  // Resolve the top agent's model now, so a missing key fails before a transcript is created (exit 3);
  // `auto` is decided per goal (topModel), here from the first one when it is known.
  const override = flags.model ?? flags.tier;
  try {
    session.client.resolve(decideAuto(override ?? spec.model, firstGoal).name);
  } catch (error) {
    // No key anywhere: the first-run screen instead of one line (first-run.ts, loaded only on this error).
    const { firstRunError } = await import("./first-run.ts");
    throw await firstRunError(error, env, config, command);
  }

  return {
    session,
    env,
    workspace: session.workspace,
    config,
    spec,
    who: { agent: "root", name: spec.name, depth: 0 },
    redactor: session.redactor,
    client: session.client,
    limits,
    ...(override !== undefined ? { override } : {}),
    escalate: flags.fallback !== false && config.defaults.fallback !== false,
    ...(continued ? { continued } : {}),
    ...(worktree ? { worktree } : {}),
    setSink: (next, unredacted) => {
      sink = next;
      tap = unredacted;
    },
  };
}

/** One run of the root agent on the session's conversation. */
export interface RootTurn {
  goal: string;
  signal: AbortSignal;
  /** The transcript this turn's events go to. */
  sessionId: string;
  /** The conversation so far (empty for a new one). */
  history: Message[];
  /** Marks session_start as continuing the session. */
  resumed: boolean;
  /** The continued session's recorded skill activations (its resume point's `skills`), restored once. */
  restoredSkills?: readonly SkillActivationRecord[];
  /** Model override (`--model`, or `/model` in a chat). */
  model?: string;
  /** The user message (from 1) this run answers in the conversation as it stands. */
  turn?: number;
  /** `--system`: replaces the root agent's system prompt. */
  systemPrompt?: string;
  /** `--schema`: the JSON schema the final answer must match. */
  outputSchema?: RunAgentOptions["outputSchema"];
  /** `--plan`, `/plan`: read-only tools and a plan for an answer (docs/plan-mode.md). */
  plan?: boolean;
}

/** Runs the root agent once, with its sub-agents, approvals and tools, on the session. */
export function runRootTurn(setup: SessionSetup, turn: RootTurn): Promise<RunResult> {
  return setup.session.run(turn.goal, {
    agent: setup.spec.name,
    signal: turn.signal,
    sessionId: turn.sessionId,
    limits: setup.limits,
    escalate: setup.escalate,
    ...(turn.model !== undefined ? { model: turn.model } : {}),
    ...(turn.turn !== undefined ? { turn: turn.turn } : {}),
    ...(turn.systemPrompt !== undefined ? { systemPrompt: turn.systemPrompt } : {}),
    ...(turn.outputSchema ? { outputSchema: turn.outputSchema } : {}),
    ...(turn.plan ? { plan: true } : {}),
    ...(turn.history.length > 0 || turn.resumed ? { history: turn.history, resumed: turn.resumed } : {}),
    ...(turn.restoredSkills?.length ? { restoredSkills: turn.restoredSkills } : {}),
    ...(setup.worktree
      ? { worktree: { name: setup.worktree.name, branch: setup.worktree.branch, path: setup.worktree.path } }
      : {}),
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

/**
 * The worktree the session works in: the one `--worktree` makes or enters, the one a `--resume`d session
 * ran in, or the one the directory lies in. The worktree code loads only when one of these can apply
 * (the state directory's path is compared first), so a plain run's start-up does not pay for it.
 */
async function sessionWorktree(
  flags: SessionFlags,
  dir: string,
  env: Record<string, string | undefined>,
  config: AgentConfig,
  stderr: { write(text: string): unknown },
): Promise<WorktreeRun | undefined> {
  const inState = realOrSelf(dir).startsWith(`${realOrSelf(worktreesDir(env))}/`);
  const resuming = flags.resume !== undefined && flags.cwd === undefined;
  if (flags.worktree === undefined && !inState && !resuming) return undefined;
  const worktrees = await import("./worktree-session.ts");
  if (flags.worktree !== undefined) {
    const warn = (message: string) => stderr.write(`agent: warning: ${message}\n`);
    return worktrees.enterWorktree(flags.worktree, dir, env, config.worktree?.baseRef, warn);
  }
  const home =
    resuming && flags.resume !== undefined ? worktrees.resumedWorktreeDir(flags.resume, env) : undefined;
  return worktrees.worktreeOf(home ?? realOrSelf(dir), env);
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** The workspace at `dir`; `env`'s HOME and XDG variables name the user's own files in it (Workspace.open). */
async function openWorkspace(dir: string, env: Record<string, string | undefined>): Promise<Workspace> {
  try {
    return await Workspace.open(dir, { env });
  } catch (error) {
    throw new AppError("usage", `--cwd ${dir}: not a usable directory (${(error as Error).message})`);
  }
}
