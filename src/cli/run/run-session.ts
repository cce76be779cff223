/**
 * `agent run` implementation: sets up a session (session-setup.ts), picks a renderer and an approval gate,
 * runs the root agent once, and returns the documented exit code.
 * Every event goes to the transcript first (synchronously, so nothing done is lost) and then to the renderer.
 */
import { describeTierChoice } from "../../agents/loop/tier-classifier.ts";
import { AppError, ExitCode, type Message, makeEvent } from "../../kernel/index.ts";
import { flagApprover, flagReason } from "../../policy/approvers.ts";
import { unsavedTranscript } from "../../session/unsaved-transcript.ts";
import { chooseRenderer, selectRenderer } from "../../ui/renderer.ts";
import { terminalNotifier } from "../../ui/terminal-notify.ts";
import { parseLimitFlags } from "../shared/flags/limit-flags.ts";
import { loadSchemaFlag } from "../shared/flags/schema-flag.ts";
import { readSystemFlags, systemPromptFrom } from "../shared/flags/system-flag.ts";
import { processRunIo, type RunIo } from "../shared/io/command-io.ts";
import { exitCodeFor } from "../shared/io/exit-code.ts";
import { handleInterrupts } from "../shared/io/interrupts.ts";
import { handOverToProcessStreams } from "../shared/io/std-streams.ts";
import {
  checkFitsContext,
  joinTask,
  readPipedStdin,
  STDIN_SKIPPED,
  taskFromStdin,
} from "../shared/io/stdin-input.ts";
import { stdoutPipe } from "../shared/io/stdout-pipe.ts";
import { commandTelemetry, finishTelemetry } from "../shared/session/run-telemetry.ts";
import { resumeCommand } from "../shared/session/session-continue.ts";
import {
  openSessionTranscript,
  type RootTurn,
  runRootTurn,
  setUpSession,
  topModel,
} from "../shared/session/session-setup.ts";
import type { RunFlags } from "./run-flag-types.ts";

/**
 * Runs `agent run`; resolves to the exit code. Throws AppError for usage, config and spec problems.
 * `io`: the process's directory, environment, streams and terminals, or a caller's (command-io.ts).
 */
export async function runSession(
  goalWords: string[],
  flags: RunFlags,
  io: RunIo = processRunIo(),
): Promise<number> {
  const { stderr, stdout } = io;
  parseLimitFlags(flags); // bad flags are usage errors (exit 2) before anything else is read
  const workspaceDir = flags.cwd ?? io.cwd;
  const outputSchema = await loadSchemaFlag(flags.schema, workspaceDir);
  const systemTexts = await readSystemFlags(flags, workspaceDir);
  const continuing = flags.continue === true || flags.resume !== undefined;
  const persisted = flags.sessionPersistence !== false;
  if (!persisted && continuing)
    throw new AppError(
      "usage",
      "--no-session-persistence starts a session that is not kept; it cannot continue one (-c, --resume)",
    );
  const stdin = await readPipedStdin({
    waitForEof: taskFromStdin(goalWords) && !continuing,
    ...(io.stdin ? { stdin: io.stdin } : {}),
  });
  if (stdin.skipped) stderr.write(`agent: ${STDIN_SKIPPED}\n`);
  const goal =
    continuing && taskFromStdin(goalWords) && stdin.text.trim() === ""
      ? "Continue where you left off."
      : joinTask(
          goalWords,
          stdin.text,
          'no goal: agent run "what to do", or pipe it on stdin (agent run --help)',
        );
  const setup = await setUpSession(flags, "run", goal, io);
  // models.refresh: auto starts a background catalog refresh (never awaited on the hot path; a replay makes
  // no network request); it is given at most 2 s at the end of the run (config-refresh.ts).
  const autoRefresh =
    setup.config.modelsRefresh === "auto" && flags.replay === undefined
      ? (await import("../../sdk/config/config-refresh.ts")).startAutoRefresh(setup.config, setup.env)
      : undefined;
  const { continued, redactor, env, session } = setup;
  const systemPrompt = systemPromptFrom(systemTexts, setup.spec.system_prompt);
  // `auto` is decided from the goal; the choice is one stderr line.
  const top = topModel(setup, goal);
  checkFitsContext(stdin.text, setup.client.info(setup.client.resolve(top.model ?? setup.spec.model).ref));
  if (top.auto) {
    const flag =
      flags.model !== undefined
        ? "--model"
        : flags.tier !== undefined
          ? "--tier"
          : `spec ${setup.spec.name}: model:`;
    stderr.write(`agent: ${describeTierChoice(top.auto, flag)}\n`);
  }

  const transcript = persisted ? await openSessionTranscript(setup) : unsavedTranscript(session.id);
  // `agent -p` never prompts: it runs as without a terminal on stdin (plain progress, --on-ask decides).
  const stdinIsTTY = io.terminal.stdin && flags.printMode !== true;
  const terminals = { output: flags.output, stdinIsTTY, stdoutIsTTY: io.terminal.stdout };
  // The Ink UI draws on process.stdout: every other write goes there too from now on (std-streams.ts).
  const onTerminal = selectRenderer(terminals) === "ink";
  const streams = onTerminal ? handOverToProcessStreams() : { stdout, stderr };
  // Notifications reach the terminal the Ink view draws on, and nothing else (off without a terminal).
  const notifyTerminal = onTerminal
    ? terminalNotifier(setup.config.notifications?.terminal ?? "auto", env, streams.stdout)
    : undefined;
  const renderer = await chooseRenderer({
    ...terminals,
    stderrIsTTY: io.terminal.stderr,
    stdout: streams.stdout,
    stderr: streams.stderr,
    noColor: Boolean(env.NO_COLOR),
    redactor,
    // The client's prices: a replay's live cost is 0, as its summary's.
    costOf: setup.client.costOf,
  });
  // The session's events arrive redacted (stderr and stdout end up in CI logs too): the transcript first,
  // synchronously, then the renderer.
  // Whether the session holds a model's reply: a run that failed before getting one (401, no model
  // answered) has nothing to continue, so no resume hint; an interrupted one keeps its goal to resume.
  let answered = continued !== undefined;
  // Traces (off unless the variables or the user config name a collector) see the same redacted events.
  const telemetry = await commandTelemetry(setup.config, env, setup.client.costOf);
  // The root's conversation, exact (before redaction): an approved plan is carried out with it.
  const conversation: Message[] = [...(continued?.point.messages ?? [])];
  setup.setSink(
    (event) => {
      transcript.append(event);
      if (event.kind === "message" && event.data.message.role === "assistant") answered = true;
      telemetry?.onEvent(event);
      renderer.onEvent(event);
      if (event.kind === "notification") notifyTerminal?.(event.data.message);
    },
    (event) => {
      if (event.kind === "message" && event.depth === 0) conversation.push(event.data.message);
    },
  );
  // An explicit --on-ask decides even on a terminal; otherwise a terminal asks the user.
  const interactive = flags.onAsk === undefined ? renderer.approver : undefined;
  const onAsk = flags.onAsk ?? setup.config.defaults.onAsk;
  const why = flagReason({
    explicit: onAsk !== undefined,
    stdinIsTTY,
    stdoutIsTTY: io.terminal.stdout,
  });
  session.setApprover(interactive ?? flagApprover(onAsk ?? "deny", why));

  const pipe = stdoutPipe();
  const interrupts = handleInterrupts({
    // Through the renderer, not straight to stderr: a write behind Ink's back breaks its redraw and
    // leaves pieces of the approval prompt on the screen.
    onFirst: () =>
      session.emit(
        makeEvent(setup.who, "warning", {
          message: "interrupting (press Ctrl-C again to force)",
          code: "interrupted",
        }),
      ),
    // A second Ctrl-C: leave now, but with the end a run shows (status, session, the resume line) in
    // place of the live frame, so no spinner stays frozen on the screen. The transcript holds what was done.
    onForce: () => {
      transcript.close();
      const forced = renderer.finish({
        status: "interrupted",
        finishReason: "aborted",
        answer: "",
        usage: [],
        sessionId: transcript.id,
        sessionSaved: persisted,
        exitCode: ExitCode.interrupted,
        ...(persisted
          ? { resumeCommand: resumeCommand("run", transcript.id, setup.workspace.root, env, io.cwd) }
          : {}),
      });
      // A renderer that cannot finish (a stuck terminal) must not keep the process: exit regardless after
      // a bound. Only a stuck terminal waits it out; a loaded machine may need seconds to draw the end
      // (at 2 s the summary was sometimes cut), so the bound is generous.
      const bound = new Promise((resolve) => setTimeout(resolve, 10_000).unref());
      void Promise.race([forced, bound]).finally(() => process.exit(ExitCode.interrupted));
    },
  });
  try {
    const turn: RootTurn = {
      goal,
      signal: AbortSignal.any([interrupts.signal, pipe.signal]),
      sessionId: transcript.id,
      history: continued?.point.messages ?? [],
      resumed: continued !== undefined,
      ...(continued ? { restoredSkills: continued.point.skills } : {}),
      turn: (continued?.point.turns ?? 0) + 1,
      ...(outputSchema ? { outputSchema } : {}),
      ...(systemPrompt !== undefined ? { systemPrompt } : {}),
      ...(top.model !== undefined ? { model: top.model } : {}),
    };
    // --plan: the plan, then on a terminal the user's review and, once approved, the run that carries it out.
    const result = flags.plan
      ? (
          await (
            await import("../shared/session/plan-review.ts")
          ).planThenExecute(setup, turn, interactive !== undefined, () => [...conversation])
        ).result
      : await runRootTurn(setup, turn);
    // The reader closed stdout: the run was aborted; nothing more can be shown (the transcript has it all).
    if (pipe.broken) {
      renderer.dispose();
      return ExitCode.brokenPipe;
    }
    // A cassette that does not fit the run (a request unlike the recorded one, or one past its last turn)
    // is a usage error (exit 2), whatever the run made of it. Printed once: without a terminal the run's
    // error line on stderr has said it; the terminal view's live area goes with dispose, so there the
    // command's error line says it.
    const misfit = setup.client.replay?.misfit();
    if (misfit !== undefined) {
      renderer.dispose();
      throw new AppError("usage", misfit, { shown: !onTerminal });
    }
    // A cassette that could not be written (a full disk) fails the command (exit 3): the recording is incomplete.
    const recordFailure = setup.client.record?.failure();
    if (recordFailure !== undefined) {
      renderer.dispose();
      throw recordFailure;
    }
    const exitCode = exitCodeFor(result, interrupts.by);
    // A session that is not kept has nothing to continue.
    const resumable =
      persisted && (answered || exitCode === ExitCode.interrupted || exitCode === ExitCode.hangup);
    const next = resumable
      ? resumeCommand("run", transcript.id, setup.workspace.root, env, io.cwd)
      : undefined;
    const recorded = setup.client.replay ? { recordedCostUsd: setup.client.replay.recordedCostUsd() } : {};
    // A worktree run's changes are committed on its branch; the end says where and how to merge them.
    const worktree = setup.worktree
      ? {
          worktree: (await import("../shared/session/worktree-session.ts")).finishWorktree(
            setup.worktree,
            transcript.id,
            env,
          ),
        }
      : {};
    await autoRefresh?.settle((note) => stderr.write(`agent: warning: ${note}\n`));
    await renderer.finish(
      redactor.redactValue({
        ...result,
        sessionId: transcript.id,
        sessionSaved: persisted,
        exitCode,
        ...(next !== undefined ? { resumeCommand: next } : {}),
        ...recorded,
        ...worktree,
      }),
    );
    return exitCode;
  } finally {
    // Every server this run started stops with it (a forced exit sweeps them from process-sweep's hook).
    await session.close();
    interrupts.dispose();
    transcript.close();
    await finishTelemetry(telemetry);
  }
}
