/**
 * `agent run` implementation: builds a session (workspace, specs, model client, rules, approval gate,
 * transcript, renderer), runs the agent loop, and returns the documented exit code.
 * Every event goes to the transcript first (synchronously, so nothing done is lost) and then to the renderer.
 */
import { basename } from "node:path";
import { type ResumePoint, resumeFrom } from "../agents/resume.ts";
import { type AgentEvent, AppError, makeEvent, Redactor } from "../kernel/index.ts";
import { costOf, modelInfo } from "../llm/catalog.ts";
import { flagApprover } from "../policy/approvers.ts";
import { createSession } from "../sdk/session.ts";
import { findSession, readTranscript } from "../session/sessions.ts";
import { openTranscript } from "../session/transcript.ts";
import { Workspace } from "../tools/workspace.ts";
import { chooseRenderer } from "../ui/renderer.ts";
import { loadConfig } from "./config.ts";
import { handleInterrupts } from "./interrupts.ts";
import { projectOverrideNotices } from "./project-notices.ts";
import type { RunFlags } from "./run-command.ts";
import { exitCodeFor } from "./run-exit-code.ts";
import { parseLimitFlags } from "./run-flags.ts";

/** Runs `agent run`; resolves to the exit code. Throws AppError for usage, config and spec problems. */
export async function runSession(goalWords: string[], flags: RunFlags): Promise<number> {
  const env = process.env;
  const limits = parseLimitFlags(flags);
  const workspace = await openWorkspace(flags.cwd ?? process.cwd());
  const config = await loadConfig(env);
  const resumed = flags.resume !== undefined ? loadResumePoint(flags.resume) : undefined;
  const goal = goalWords.join(" ").trim() || (resumed ? "Continue where you left off." : "");
  if (goal === "") throw new AppError("usage", 'no goal: agent run "what to do" (agent run --help)');

  const { loadSpecs, specAppError } = await import("../agents/spec-loader.ts");
  const loaded = await loadSpecs({ workspaceRoot: workspace.root, env });
  if (loaded.errors.length > 0) throw specAppError(loaded.errors);

  const redactor = Redactor.fromEnv(env);
  let sink: (event: AgentEvent) => void = () => {};
  const session = await createSession({
    cwd: workspace.root,
    env,
    config,
    specs: loaded.specs.values(),
    rules: { allow: flags.allow ?? [], deny: flags.deny ?? [] },
    redactor,
    // Every event goes to the transcript first (synchronously), then to the renderer.
    onEvent: (event) => sink(event),
    notices: projectOverrideNotices(loaded),
    fallback: flags.fallback !== false,
    ...(resumed ? { sessionId: resumed.sessionId } : {}),
    ...(flags.record !== undefined ? { record: flags.record } : {}),
    ...(flags.replay !== undefined ? { replay: flags.replay } : {}),
  });
  const spec = session.spec(flags.agent ?? resumed?.agentName);
  // Resolve the top agent's model now, so a missing key fails before a session is created (exit 3).
  session.client.resolve(flags.model ?? spec.model);

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
  session.setApprover(interactive ?? flagApprover(flags.onAsk ?? config.defaults.onAsk ?? "deny"));

  const who = { agent: "root", name: spec.name, depth: 0 };
  const interrupts = handleInterrupts({
    // Through the renderer, not straight to stderr: a write behind Ink's back breaks its redraw and
    // leaves pieces of the approval prompt on the screen.
    onFirst: () =>
      sink(
        redactor.redactValue(
          makeEvent(who, "warning", {
            message: "interrupting (press Ctrl-C again to force)",
            code: "interrupted",
          }),
        ),
      ),
    onForce: () => {
      transcript.close();
      renderer.dispose();
      process.exit(130);
    },
  });
  try {
    const result = await session.run(goal, {
      agent: spec.name,
      signal: interrupts.signal,
      limits,
      ...(flags.model !== undefined ? { model: flags.model } : {}),
      ...(resumed ? { history: resumed.messages, resumed: true } : {}),
    });
    const exitCode = exitCodeFor(result);
    await renderer.finish(redactor.redactValue({ ...result, sessionId: transcript.id, exitCode }));
    return exitCode;
  } finally {
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
