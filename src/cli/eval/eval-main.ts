/**
 * The work of `agent eval` and `agent eval merge` (declared in eval-command.ts): load the suite (all its
 * problems at once as FILE:LINE: field: message, exit 3), run it, print the table or the JSON report,
 * write JUnit, compare. Exit 0 when every task passed, 1 when some failed.
 */
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { stateDir } from "../../kernel/files/paths.ts";
import { AppError, ExitCode } from "../../kernel/index.ts";
import { CliExit } from "../shared/command-module.ts";
import { handleInterrupts } from "../shared/io/interrupts.ts";
import { stderr, stdout } from "../shared/io/std-streams.ts";
import type { EvalReport } from "./eval-report.ts";
import { runSuite } from "./eval-run.ts";
import { parseShard } from "./eval-shard.ts";
import { compareReports, comparisonText } from "./report-compare.ts";
import { reportJunit } from "./report-junit.ts";
import { mergeReports } from "./report-merge.ts";
import { readReport } from "./report-read.ts";
import { reportTable } from "./report-table.ts";
import { formatSuiteError, loadSuite } from "./suite-load.ts";

export interface EvalFlags {
  jobs: string;
  output: "table" | "json";
  junit?: string;
  /** `--record` alone is true: the suite's cassettes/ folder. */
  record?: string | true;
  replay?: string | true;
  compare?: string;
  shard?: string;
  out?: string;
  keepWorkspaces?: boolean;
}

export interface MergeFlags {
  output: "table" | "json";
  junit?: string;
}

export async function evalSuiteCommand(file: string, flags: EvalFlags): Promise<void> {
  const jobs = Number(flags.jobs);
  if (!Number.isInteger(jobs) || jobs < 1)
    throw new CliExit(ExitCode.usage, `--jobs ${flags.jobs}: expected a whole number of 1 or more`);
  if (flags.record && flags.replay)
    throw new CliExit(ExitCode.usage, "--record and --replay cannot be combined: record once, then replay");
  const shard = flags.shard === undefined ? undefined : parseShard(flags.shard);
  // Read before the suite runs, so a bad --compare file costs no model calls.
  const old = flags.compare ? readReport(flags.compare) : undefined;
  const loaded = await loadSuite(file);
  if ("errors" in loaded) {
    // A suite that is not there is a mistyped argument (exit 2), not an invalid suite (exit 3).
    if (loaded.errors.some((error) => error.missing))
      throw new CliExit(
        ExitCode.usage,
        `no such file: ${file} (agent eval SUITE.yaml runs a task suite; docs/eval.md)`,
      );
    for (const error of loaded.errors) stderr.write(`${formatSuiteError(error)}\n`);
    const count = loaded.errors.length;
    throw new AppError("spec", `the suite ${file} is invalid (${count} problem${count === 1 ? "" : "s"})`, {
      file,
    });
  }
  const outDir = resolve(flags.out ?? join(stateDir(), "evals", runName()));
  const cassettes = (dir: string | true) => (dir === true ? join(dirname(file), "cassettes") : dir);
  // The first Ctrl-C or SIGTERM stops the running tasks (each run ends as interrupted) and starts no more.
  const interrupts = handleInterrupts({
    onFirst: () => stderr.write("agent: stopping the running tasks (a second signal quits at once)\n"),
    onForce: () => process.exit(ExitCode.interrupted),
  });
  let report: EvalReport;
  try {
    report = await runSuite(loaded.suite, {
      jobs,
      outDir,
      ...(flags.record ? { record: cassettes(flags.record) } : {}),
      ...(flags.replay ? { replay: cassettes(flags.replay) } : {}),
      ...(shard ? { shard } : {}),
      keepWorkspaces: flags.keepWorkspaces === true,
      env: process.env,
      signal: interrupts.signal,
      progress: (line) => stderr.write(`${line}\n`),
    });
  } finally {
    interrupts.dispose();
  }
  if (interrupts.interrupted)
    throw new CliExit(
      interrupts.by === "SIGHUP" ? ExitCode.hangup : ExitCode.interrupted,
      `interrupted: ${report.tasks.length} of the suite's tasks ran; task results and transcripts: ${outDir}`,
    );
  const comparison = old && flags.compare ? compareReports(old, report, flags.compare) : undefined;
  if (flags.output === "json") {
    stdout.write(`${JSON.stringify(comparison ? { ...report, comparison } : report)}\n`);
  } else {
    stdout.write(reportTable(report));
    if (comparison) stdout.write(`\n${comparisonText(comparison)}`);
  }
  stderr.write(`task results and transcripts: ${outDir}\n`);
  finish(report, flags.junit);
}

export async function evalMergeCommand(files: string[], flags: MergeFlags): Promise<void> {
  const report = mergeReports(files.map((file) => ({ file, report: readReport(file) })));
  stdout.write(flags.output === "json" ? `${JSON.stringify(report)}\n` : reportTable(report));
  finish(report, flags.junit);
}

/** Writes JUnit if asked, then ends with 0 (all passed) or 1. */
function finish(report: EvalReport, junit: string | undefined): void {
  if (junit) {
    try {
      writeFileSync(junit, reportJunit(report));
    } catch (error) {
      throw new CliExit(ExitCode.usage, `--junit ${junit}: cannot write: ${(error as Error).message}`);
    }
  }
  if (report.totals.failed > 0) throw new CliExit(ExitCode.failure, "", true);
}

/** `20261126-235959-ab12cd`: sortable, unique enough for parallel evals. */
function runName(): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  return `${stamp}-${randomBytes(3).toString("hex")}`;
}
