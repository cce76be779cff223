/**
 * `agent run` implementation: builds a session (workspace, specs, model client, rules, approval gate,
 * transcript, renderer), runs the agent loop, and returns the documented exit code.
 * Every event goes to the transcript first (synchronously, so nothing done is lost) and then to the renderer.
 */
import { basename } from "node:path";
import { type ResumePoint, resumeFrom } from "../agents/resume.ts";
import { decideAuto, describeTierChoice } from "../agents/tier-classifier.ts";
import { type AgentEvent, AppError, ExitCode, makeEvent, Redactor } from "../kernel/index.ts";
import { costOf, modelInfo } from "../llm/catalog.ts";
import { flagApprover, flagReason } from "../policy/approvers.ts";
import { createSession } from "../sdk/session.ts";
import { findSession, readTranscript } from "../session/sessions.ts";
import { openTranscript } from "../session/transcript.ts";
import { chooseSandbox } from "../tools/sandbox.ts";
import { Workspace } from "../tools/workspace.ts";
import { chooseRenderer } from "../ui/renderer.ts";
import { loadConfig } from "./config.ts";
import { handleInterrupts } from "./interrupts.ts";
import { sessionMcpConfigs } from "./mcp-session.ts";
import { projectOverrideNotices } from "./project-notices.ts";
import { loadProjectRules } from "./project-rules.ts";
import type { RunFlags } from "./run-command.ts";
import { exitCodeFor } from "./run-exit-code.ts";
import { parseLimitFlags } from "./run-flags.ts";
import { loadRunSpecs } from "./run-specs.ts";
import { sandboxSettings } from "./sandbox-flags.ts";
import { sandboxWorkspace } from "./sandbox-setup.ts";
import { loadSchemaFlag } from "./schema-flag.ts";
import { checkFitsContext, joinTask, readPipedStdin, STDIN_SKIPPED, taskFromStdin } from "./stdin-input.ts";
import { stdoutPipe } from "./stdout-pipe.ts";
import { systemPromptFrom } from "./system-flag.ts";

/** Runs `agent run`; resolves to the exit code. Throws AppError for usage, config and spec problems. */
export async function runSession(goalWords: string[], flags: RunFlags): Promise<number> {
  const env = process.env;
  parseLimitFlags(flags); // bad flags are usage errors (exit 2) before anything else is read
  const outputSchema = await loadSchemaFlag(flags.schema);
  const opened = await openWorkspace(flags.cwd ?? process.cwd());
  const config = await loadConfig(env);
  const sandboxing = sandboxSettings(flags, config.sandbox);
  // bwrap is probed (a process start) while specs are loaded; awaited before the session is made.
  const probed = chooseSandbox(sandboxing, opened.roots, env);
  const limits = parseLimitFlags(flags, config.defaults);
  const resumed = flags.resume !== undefined ? loadResumePoint(flags.resume) : undefined;
  const stdin = await readPipedStdin({ waitForEof: taskFromStdin(goalWords) && !resumed });
  if (stdin.skipped) process.stderr.write(`agent: ${STDIN_SKIPPED}\n`);
  const goal =
    resumed && taskFromStdin(goalWords) && stdin.text.trim() === ""
      ? "Continue where you left off."
      : joinTask(
          goalWords,
          stdin.text,
          'no goal: agent run "what to do", or pipe it on stdin (agent run --help)',
        );

  const agentName = flags.agent ?? resumed?.agentName ?? config.defaults.agent ?? "root";
  // Specs may name the MCP servers of the user config and of a trusted project (mcp-session.ts).
  const mcp = sessionMcpConfigs(config, await loadProjectRules(opened.root), opened.root);
  const loaded = await loadRunSpecs(opened.root, env, { ...config, mcpServers: mcp.servers }, agentName);
  const sandboxed = sandboxWorkspace(opened, sandboxing, await probed);
  const redactor = Redactor.fromEnv(env);
  let sink: (event: AgentEvent) => void = () => {};
  const session = await createSession({
    workspace: sandboxed.workspace,
    env,
    config,
    specs: loaded.specs.values(),
    rules: { allow: flags.allow ?? [], deny: flags.deny ?? [] },
    redactor,
    // Every event goes to the transcript first (synchronously), then to the renderer.
    onEvent: (event) => sink(event),
    notices: [
      ...projectOverrideNotices(loaded),
      ...(sandboxed.warning ? [{ code: "sandbox_unavailable", message: sandboxed.warning }] : []),
    ],
    fallback: flags.fallback !== false,
    ...(resumed ? { sessionId: resumed.sessionId } : {}),
    ...(flags.record !== undefined ? { record: flags.record } : {}),
    ...(flags.replay !== undefined ? { replay: flags.replay } : {}),
    ...(flags.replayLoose ? { replayLoose: true } : {}),
  });
  const spec = session.spec(agentName);
  const systemPrompt = systemPromptFrom(flags, spec.system_prompt);
  // `auto` is decided from the goal (reported on stderr); then resolve the top agent's model now, so a
  // missing key fails before a session is created (exit 3).
  const override = flags.model ?? flags.tier;
  const top = decideAuto(override ?? spec.model, goal);
  if (top.auto) {
    const flag =
      flags.model !== undefined
        ? "--model"
        : flags.tier !== undefined
          ? "--tier"
          : `spec ${spec.name}: model:`;
    process.stderr.write(`agent: ${describeTierChoice(top.auto, flag)}\n`);
  }
  const resolvedTop = session.client.resolve(top.name);
  checkFitsContext(stdin.text, session.client.info(resolvedTop.ref));

  const transcript = openTranscript({
    redactor,
    ...(resumed ? { sessionId: resumed.sessionId } : { newId: session.id }),
  });
  const renderer = await chooseRenderer({
    output: flags.output,
    stdinIsTTY: process.stdin.isTTY === true,
    stdoutIsTTY: process.stdout.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
    noColor: Boolean(env.NO_COLOR),
    redactor,
    costOf: (model, usage) => costOf(usage, modelInfo(model)),
  });
  sink = (event) => {
    transcript.append(event);
    renderer.onEvent(event);
  };
  // An explicit --on-ask decides even on a terminal; otherwise a terminal asks the user.
  const interactive = flags.onAsk === undefined ? renderer.approver : undefined;
  const onAsk = flags.onAsk ?? config.defaults.onAsk;
  const why = flagReason({
    explicit: onAsk !== undefined,
    stdinIsTTY: process.stdin.isTTY === true,
    stdoutIsTTY: process.stdout.isTTY === true,
  });
  session.setApprover(interactive ?? flagApprover(onAsk ?? "deny", why));

  const who = { agent: "root", name: spec.name, depth: 0 };
  const pipe = stdoutPipe();
  const interrupts = handleInterrupts({
    // Through the renderer, not straight to stderr: a write behind Ink's back breaks its redraw and
    // leaves pieces of the approval prompt on the screen.
    onFirst: () => {
      const message = "interrupting (press Ctrl-C again to force)";
      sink(redactor.redactValue(makeEvent(who, "warning", { message, code: "interrupted" })));
    },
    onForce: () => {
      transcript.close();
      renderer.dispose();
      process.exit(130);
    },
  });
  try {
    const result = await session.run(goal, {
      agent: spec.name,
      signal: AbortSignal.any([interrupts.signal, pipe.signal]),
      limits,
      ...(systemPrompt !== undefined ? { systemPrompt } : {}),
      ...(outputSchema ? { outputSchema } : {}),
      ...(override !== undefined || top.auto ? { model: top.name } : {}),
      // A stalled root continues once on the next tier with its conversation; --no-fallback keeps it off.
      escalate: flags.fallback !== false && config.defaults.fallback !== false,
      ...(resumed ? { history: resumed.messages, resumed: true } : {}),
    });
    // The reader closed stdout: the run was aborted; nothing more can be shown (the transcript has it all).
    if (pipe.broken) {
      renderer.dispose();
      return ExitCode.brokenPipe;
    }
    // A strict replay that met a request unlike the recorded one is a usage error (exit 2), whatever the run made of it.
    const mismatch = session.client.replay?.mismatch();
    if (mismatch !== undefined) {
      renderer.dispose();
      throw new AppError("usage", mismatch);
    }
    const exitCode = exitCodeFor(result);
    const replay = session.client.replay;
    const recorded = replay ? { recordedCostUsd: replay.recordedCostUsd() } : {};
    await renderer.finish(
      redactor.redactValue({ ...result, sessionId: transcript.id, exitCode, ...recorded }),
    );
    return exitCode;
  } finally {
    // Every server this run started stops with it (a forced exit sweeps them from process-sweep's hook).
    await session.close();
    interrupts.dispose();
    transcript.close();
  }
}

async function openWorkspace(dir: string): Promise<Workspace> {
  try {
    return await Workspace.open(dir);
  } catch (error) {
    throw new AppError("usage", `--cwd ${dir}: not a usable directory (${(error as Error).message})`);
  }
}

/** Reads an existing session to continue; an unknown id is a usage error (exit 2), never a new session. */
function loadResumePoint(id: string): ResumePoint & { sessionId: string } {
  const path = findSession(id);
  const { events, warnings } = readTranscript(path);
  for (const warning of warnings) process.stderr.write(`agent: ${warning}\n`);
  const point = resumeFrom(events);
  return { ...point, sessionId: basename(path, ".jsonl") };
}
