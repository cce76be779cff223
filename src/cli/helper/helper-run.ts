/**
 * `agent helper` implementation (`helperMain`): builds the prompt (arguments plus piped stdin), picks
 * the model (`--model`, `--tier`, or the classifier for `--tier auto`), then runs either one model
 * call (no `--tools`; helper-call.ts) or the agent loop with a tool whitelist (helper-tools.ts, loaded
 * only then), and prints only the answer on stdout (helper-output.ts).
 */
import type { OutputSchema } from "../../agents/loop/output-schema.ts";
import { describeTierChoice } from "../../agents/loop/tier-classifier.ts";
import type { RunLimits } from "../../agents/types.ts";
import {
  type AgentEvent,
  AppError,
  type ModelRef,
  TerminalSafeStream,
  terminalSafe,
  WholeWords,
} from "../../kernel/index.ts";
import { Redactor } from "../../kernel/text/redact.ts";
import { describeNotice } from "../../llm/notice-text.ts";
import { loadConfig } from "../../sdk/config/config.ts";
import { createSession } from "../../sdk/session.ts";
import { WarningLog } from "../../ui/result-warnings.ts";
import { CliExit } from "../shared/command-module.ts";
import { parseLimitFlags } from "../shared/flags/limit-flags.ts";
import { sandboxSettings } from "../shared/flags/sandbox-flags.ts";
import { readSystemFlags, systemPromptFrom } from "../shared/flags/system-flag.ts";
import { handleInterrupts } from "../shared/io/interrupts.ts";
import { stderr, stdout } from "../shared/io/std-streams.ts";
import {
  checkFitsContext,
  joinTask,
  readPipedStdin,
  STDIN_SKIPPED,
  taskFromStdin,
} from "../shared/io/stdin-input.ts";
import { stdoutPipe } from "../shared/io/stdout-pipe.ts";
import { commandTelemetry, finishTelemetry } from "../shared/session/run-telemetry.ts";
import { SINGLE_CALL_SYSTEM, singleCall } from "./helper-call.ts";
import type { HelperFlags } from "./helper-flag-types.ts";
import { chooseModelName, parseToolList } from "./helper-options.ts";
import { type HelperOutcome, writeOutcome } from "./helper-output.ts";
import { helperSkillTask } from "./helper-skill.ts";
import { traceSingleCall } from "./helper-trace.ts";

/** The budgets of a run, only those set. */
function budgetsOf(limits: RunLimits): Pick<RunLimits, "tokenBudget" | "costBudgetUsd"> {
  return {
    ...(limits.tokenBudget !== undefined ? { tokenBudget: limits.tokenBudget } : {}),
    ...(limits.costBudgetUsd !== undefined ? { costBudgetUsd: limits.costBudgetUsd } : {}),
  };
}

/** Loads `--schema` (and Ajv) only when the flag is given: the plain helper must start fast. */
async function loadSchema(value: string): Promise<OutputSchema | undefined> {
  const { loadSchemaFlag } = await import("../shared/flags/schema-flag.ts");
  return loadSchemaFlag(value, process.cwd());
}

/**
 * Runs `agent helper`. Usage (2), config (3) errors are thrown as AppError before any model call; the
 * run's own end is a CliExit with the documented code (4 provider, 5 limit, 130 interrupted).
 */
export async function helperMain(args: string[], flags: HelperFlags): Promise<void> {
  const env = process.env;
  const redactor = Redactor.fromEnv(env);
  const tools = parseToolList(flags.tools);
  const json = flags.json === true || flags.output === "json";
  parseLimitFlags(flags); // bad flags are usage errors (exit 2) before stdin or config is read
  const systemTexts = await readSystemFlags(flags, process.cwd());
  const singleSystem = tools === undefined ? systemPromptFrom(systemTexts, SINGLE_CALL_SYSTEM) : undefined;
  const outputSchema = flags.schema !== undefined ? await loadSchema(flags.schema) : undefined;
  const stdin = await readPipedStdin({ waitForEof: taskFromStdin(args) });
  if (stdin.skipped) stderr.write(`agent: ${STDIN_SKIPPED}\n`);
  const stdinText = stdin.text;
  // Every warning of the run: one stderr line, and the JSON result's `warnings` (as `agent run` reports them).
  const warnings = new WarningLog();
  const warn = (message: string, code: string): void => {
    warnings.add("root", code, message);
    stderr.write(`agent: warning: ${terminalSafe(redactor.redact(message))}\n`);
  };
  const skillTask = await helperSkillTask(args.join(" "), process.cwd(), env, (line) =>
    stderr.write(`agent: ${terminalSafe(line)}\n`),
  );
  const prompt = joinTask(
    skillTask !== undefined ? [skillTask] : args,
    stdinText,
    "no prompt: pass it as arguments or pipe it on stdin (agent helper --help)",
  );
  // With no arguments, piped stdin is the task itself, so the classifier reads it as the prompt.
  const argText = taskFromStdin(args) ? "" : args.join(" ").trim();
  const choice = await chooseModelName({
    tier: flags.tier,
    prompt: argText || stdinText,
    stdinLength: argText ? stdinText.length : 0,
    toolCount: tools?.length ?? 0,
    ...(flags.model !== undefined ? { model: flags.model } : {}),
  });
  if (choice.auto) {
    const flag = flags.model !== undefined ? "--model" : "--tier";
    stderr.write(`agent: ${describeTierChoice(choice.auto, flag)}\n`);
  }

  const config = await loadConfig(env);
  const limits = parseLimitFlags(flags, config.defaults);
  const fallback = flags.fallback !== false && config.defaults.fallback !== false;
  let fellBackTo: ModelRef | undefined;
  // With --tools, the loop and its one agent (loaded only then: a plain call needs neither).
  const toolsPath = tools === undefined ? undefined : await import("./helper-tools.ts");
  const turnLimits = {
    ...(limits.maxTurns !== undefined ? { maxTurns: limits.maxTurns } : {}),
    ...(limits.timeoutMs !== undefined ? { timeoutMs: Math.max(1, limits.timeoutMs) } : {}),
  };
  let sink: (event: AgentEvent) => void = () => {};
  // The one composition root (src/sdk/session.ts): config, project rules, hooks and the model client are
  // wired there. A plain call uses only the session's client, so no project config applies to it.
  const session = await createSession({
    env,
    config,
    redactor,
    fallback: flags.fallback !== false,
    toolWhitelist: tools ?? [],
    instructions: false,
    skills: false,
    specs:
      toolsPath && tools
        ? [toolsPath.toolsSpec({ model: choice.name, tools, systemTexts, ...turnLimits })]
        : [],
    // The sandbox matters only where exec runs (config `sandbox:` with the flags over it).
    sandbox: tools?.includes("exec") ? sandboxSettings(flags, config.sandbox) : { mode: "off" },
    ...(tools === undefined ? { project: null } : {}),
    onEvent: (event) => sink(event),
    onNotice: (notice) => {
      if (notice.type === "fallback") fellBackTo = notice.to;
      stderr.write(`agent: ${describeNotice(notice)}\n`);
    },
    ...(flags.record !== undefined ? { record: flags.record } : {}),
    ...(flags.replay !== undefined ? { replay: flags.replay } : {}),
    ...(flags.replayLoose ? { replayLoose: true } : {}),
  });
  const client = session.client;
  // Resolve now: an unplaceable name is a usage error (2) and a missing key a config error (3).
  let resolved: ReturnType<typeof client.resolve>;
  try {
    resolved = client.resolve(choice.name, { nameErrorKind: "usage" });
  } catch (error) {
    // No key anywhere: the first-run screen on stderr, as `agent run` shows it (first-run.ts, loaded only then).
    throw await (await import("../shared/session/first-run.ts")).firstRunError(error, env, config, "helper");
  }
  checkFitsContext(stdinText, client.info(resolved.ref));
  // models.refresh: auto starts a background catalog refresh here (never awaited on the hot path; a replay
  // makes no network request); it is given at most 2 s at the end of the run (config-refresh.ts).
  const autoRefresh =
    config.modelsRefresh === "auto" && flags.replay === undefined
      ? (await import("../../sdk/config/config-refresh.ts")).startAutoRefresh(config, env)
      : undefined;

  // Traces (off unless the variables or the user config name a collector).
  const telemetry = await commandTelemetry(config, env, client.costOf);
  const interrupts = handleInterrupts({ onFirst: () => {}, onForce: () => process.exit(130) });
  // A schema'd answer is checked before it is printed, so it is never streamed.
  const streamed = tools === undefined && stdout.isTTY && !json && outputSchema === undefined;
  // Streamed to a terminal: redacted in whole words (a key split across deltas is caught), and model text
  // never drives the terminal (a sequence split across deltas is held whole).
  const words = new WholeWords();
  const screen = new TerminalSafeStream();
  const show = (text: string) => stdout.write(screen.push(redactor.redact(text)));
  let outcome: HelperOutcome;
  const startedAt = Date.now();
  try {
    if (toolsPath === undefined) {
      outcome = await singleCall({
        client,
        ref: resolved.ref,
        prompt,
        signal: AbortSignal.any([interrupts.signal, stdoutPipe().signal]),
        fellBackTo: () => fellBackTo,
        onDelta: (delta) => {
          if (streamed) show(words.push(delta));
        },
        onWarning: warn,
        ...(singleSystem !== undefined ? { system: singleSystem } : {}),
        ...(limits.timeoutMs !== undefined ? { timeoutMs: Math.max(1, limits.timeoutMs) } : {}),
        ...budgetsOf(limits),
        ...(outputSchema ? { schema: outputSchema } : {}),
      });
      if (telemetry) traceSingleCall(telemetry, { prompt, outcome, startedAt, redactor });
    } else {
      const showProgress = flags.verbose === true || stderr.isTTY;
      outcome = await toolsPath.runWithTools({
        session,
        listen: (onEvent) => {
          sink = onEvent;
        },
        resolved: resolved.ref,
        prompt,
        signal: AbortSignal.any([interrupts.signal, stdoutPipe().signal]),
        fellBackTo: () => fellBackTo,
        escalate: fallback,
        printWarning: (message) =>
          stderr.write(`agent: warning: ${terminalSafe(redactor.redact(message))}\n`),
        warnings,
        ...(telemetry ? { onEvent: (event: AgentEvent) => telemetry.onEvent(event) } : {}),
        ...(showProgress
          ? {
              progress: (line: string) => stderr.write(`agent: ${terminalSafe(redactor.redact(line))}\n`),
            }
          : {}),
        ...turnLimits,
        ...budgetsOf(limits),
        ...(outputSchema ? { outputSchema } : {}),
      });
    }
  } finally {
    interrupts.dispose();
    await finishTelemetry(telemetry);
  }
  if (streamed) {
    show(words.end());
    stdout.write(screen.end());
  }
  await autoRefresh?.settle((note) =>
    stderr.write(`agent: warning: ${terminalSafe(redactor.redact(note))}\n`),
  );
  // A cassette that does not fit the run (a request unlike the recorded one, or one past its last turn)
  // is a usage error (exit 2).
  const misfit = client.replay?.misfit();
  if (misfit !== undefined) throw new AppError("usage", misfit);
  // A cassette that could not be written (a full disk) fails the command (exit 3): the recording is incomplete.
  const recordFailure = client.record?.failure();
  if (recordFailure !== undefined) throw recordFailure;
  if (client.replay) outcome.recordedCostUsd = client.replay.recordedCostUsd();
  outcome.warnings = warnings.fields();
  const { code, message } = writeOutcome(
    outcome,
    {
      json,
      streamed,
      tty: stdout.isTTY,
      ...(interrupts.by !== undefined ? { interruptedBy: interrupts.by } : {}),
    },
    stdout,
    redactor,
  );
  // Text mode says on stderr what was refused (JSON carries it as `denials`): an answer alone could claim
  // a command ran that never did.
  const denied = json ? [] : (outcome.activity?.denials ?? []);
  // The progress-line formatter loads only when there is a denial to print.
  const denials = denied.length === 0 ? [] : (await import("../../ui/progress-lines.ts")).denialLines(denied);
  if (denials.length > 0) stderr.write(`${terminalSafe(redactor.redact(denials.join("\n")))}\n`);
  if (code !== 0) throw new CliExit(code, message, json);
}
