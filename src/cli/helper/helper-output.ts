/**
 * How `agent helper` ends, whichever path ran (one model call, or the loop with `--tools`): one outcome
 * shape, one place that prints it and picks the exit code (the same mapping as `agent run`).
 */
import {
  type FinishReason,
  type RunActivity,
  type RunStatus,
  roundUsd,
  stringifyForTerminal,
  terminalSafe,
  type Usage,
} from "../../kernel/index.ts";
import { Redactor } from "../../kernel/text/redact.ts";
import { SCHEMA_VERSION } from "../../ui/json-shape.ts";
import {
  type ActivityFields,
  activityFields,
  answerField,
  type TokenCounts,
  tokenCounts,
} from "../../ui/result.ts";
import type { WarningFields } from "../../ui/result-warnings.ts";
import { exitCodeFor } from "../shared/io/exit-code.ts";
import { stdout as processStdout } from "../shared/io/std-streams.ts";

/** The end of a helper run. */
export interface HelperOutcome {
  status: RunStatus;
  finishReason: FinishReason;
  /** The answer, or the best partial answer when a limit ended the run. */
  answer: string;
  /** Model id and provider instance name that produced the answer. */
  model: string;
  provider: string;
  usage: Usage;
  costUsd: number;
  /** Turns, tool calls, denials, stumbles, elided context (a single call: its turns only). */
  activity?: RunActivity;
  /** One line saying why the run did not succeed (stderr); absent on success. */
  problem?: string;
  /** A replayed run: what the served exchanges cost when recorded (`costUsd` is 0). */
  recordedCostUsd?: number;
  /** What kind of error ended the run, when one did (decides 3 or 70 for a run that ended in error). */
  error?: { kind: string; message: string };
  /** The run's warnings (the result's `warnings`; `[]` when absent). */
  warnings?: WarningFields;
}

export interface OutputMode {
  json: boolean;
  /** The answer already went to stdout as it arrived (single call on a terminal). */
  streamed: boolean;
  /** stdout is a terminal: a printed answer is made terminal-safe; piped, it is the model's bytes exactly. */
  tty?: boolean;
  /** The signal that interrupted the run, if one did (SIGHUP exits 129, not 130). */
  interruptedBy?: NodeJS.Signals;
}

/**
 * Prints the outcome: stdout gets only the answer, or in JSON mode the result object (on every exit,
 * failures included); a partial answer is printed too when a limit ended the run. Returns the exit code
 * and the stderr line for a non-zero one. Secrets (key values from the environment, key shapes) are
 * redacted: helper output often lands in CI logs.
 */
export function writeOutcome(
  raw: HelperOutcome,
  mode: OutputMode,
  stdout: { write(text: string): unknown } = processStdout,
  redactor: Redactor = Redactor.fromEnv(),
): { code: number; message: string } {
  const outcome = redactor.redactValue(raw);
  const code = exitCodeFor(outcome, mode.interruptedBy);
  const printable = outcome.status === "success" || (outcome.status === "limit" && outcome.answer !== "");
  if (mode.json) {
    stdout.write(`${stringifyForTerminal(helperRecord(outcome, code))}\n`);
  } else if (mode.streamed) {
    if (outcome.answer !== "" || outcome.status === "success") stdout.write("\n");
  } else if (printable) {
    const answer = mode.tty ? terminalSafe(outcome.answer) : outcome.answer;
    stdout.write(answer.endsWith("\n") ? answer : `${answer}\n`);
  }
  const message = code === 0 ? "" : (outcome.problem ?? `helper ended: ${outcome.finishReason}`);
  return { code, message };
}

/** `agent helper --json` / `-o json`: the run result's shape plus the model and provider that answered. */
export interface HelperRecord extends ActivityFields, WarningFields {
  type: "result";
  schema_version: number;
  status: RunStatus;
  /** Absent from an error result (docs/ci-and-json.md; ui/result.ts answerField). */
  answer?: string;
  finish_reason: FinishReason;
  exit_code: number;
  model: string;
  provider: string;
  usage: TokenCounts & { cost_usd: number };
  error?: { kind: string; message: string };
  recorded_cost_usd?: number;
}

export function helperRecord(outcome: HelperOutcome, exitCode: number): HelperRecord {
  const record: HelperRecord = {
    type: "result",
    schema_version: SCHEMA_VERSION,
    status: outcome.status,
    ...answerField(outcome.status, outcome.finishReason, outcome.answer),
    finish_reason: outcome.finishReason,
    exit_code: exitCode,
    model: outcome.model,
    provider: outcome.provider,
    usage: { ...tokenCounts(outcome.usage), cost_usd: roundUsd(outcome.costUsd) },
    ...activityFields(outcome.activity),
    ...(outcome.warnings ?? { warnings: [] }),
  };
  if (outcome.recordedCostUsd !== undefined) record.recorded_cost_usd = roundUsd(outcome.recordedCostUsd);
  if (outcome.error) record.error = { kind: outcome.error.kind, message: outcome.error.message };
  else if (outcome.status !== "success" && outcome.problem)
    record.error = { kind: outcome.finishReason, message: outcome.problem };
  return record;
}
