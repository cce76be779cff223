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
import { didYouMean } from "../../kernel/text/did-you-mean.ts";
import { configFile, loadConfig } from "../../sdk/config/config.ts";
import { CliExit } from "../shared/command-module.ts";
import { type CommandIo, processIo } from "../shared/io/command-io.ts";
import { handleInterrupts } from "../shared/io/interrupts.ts";
import { safeLine, withOneLineStrings } from "../shared/io/terminal-out.ts";
import { runSuite } from "./eval-run.ts";
import { parseShard } from "./eval-shard.ts";
import type { EvalReport } from "./report/eval-report.ts";
import { compareReports, comparisonText } from "./report/report-compare.ts";
import { reportJunit } from "./report/report-junit.ts";
import { mergeReports } from "./report/report-merge.ts";
import { readReport } from "./report/report-read.ts";
import { reportTable } from "./report/report-table.ts";
import { formatSuiteError, loadSuite } from "./suite/suite-load.ts";
import { suiteMcpServers } from "./suite/suite-mcp.ts";
import { suiteTrusted, untrustedGrants } from "./suite/suite-trust.ts";

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
  /** The user trusts the suite: it may set `sandbox: off`, `on_ask: allow` and `allow:` rules. */
  trustSuite?: boolean;
}

export interface MergeFlags {
  output: "table" | "json";
  junit?: string;
}

export async function evalSuiteCommand(
  file: string,
  flags: EvalFlags,
  io: CommandIo = processIo(),
): Promise<void> {
  // Task names, answers and check output come from the suite and the model: through the terminal filter.
  const { stdout, stderr } = io;
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
        // `agent eval merj`: a mistyped subcommand reads as a suite path.
        `no such file: ${file}${didYouMean(file, ["merge"], (name) => `agent eval ${name}`)} (agent eval SUITE.yaml runs a task suite; docs/eval.md)`,
      );
    for (const error of loaded.errors) stderr.write(safeLine`${formatSuiteError(error)}\n`);
    const count = loaded.errors.length;
    throw new AppError("spec", `the suite ${file} is invalid (${count} problem${count === 1 ? "" : "s"})`, {
      file,
    });
  }
  const config = await loadConfig(io.env);
  if (!suiteTrusted(file, config, flags.trustSuite === true)) {
    const refused = untrustedGrants(file, loaded.suite.grants, config, configFile(io.env));
    for (const error of refused) stderr.write(`${formatSuiteError(error)}\n`);
    if (refused.length > 0)
      throw new AppError(
        "spec",
        `the suite ${file} is not trusted and loosens your rules (${refused.length} setting${refused.length === 1 ? "" : "s"}); nothing ran`,
        { file },
      );
  }
  const mcpServers = await suiteMcpServers(file, loaded.suite.tasks, config, configFile(io.env));
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
      env: io.env,
      mcpServers,
      signal: interrupts.signal,
      progress: (line) => stderr.write(safeLine`${line}\n`),
    });
  } finally {
    interrupts.dispose();
  }
  const comparison = old && flags.compare ? compareReports(old, report, flags.compare) : undefined;
  if (flags.output === "json") {
    stdout.json(comparison ? { ...report, comparison } : report);
  } else {
    stdout.write(reportTable(withOneLineStrings(report)));
    if (comparison) stdout.write(`\n${comparisonText(withOneLineStrings(comparison))}`);
  }
  stderr.write(`task results and transcripts: ${outDir}\n`);
  // An interrupted eval still reports what ran (the tasks stopped midway count as failed), then exits 130.
  if (interrupts.interrupted) {
    writeJunit(report, flags.junit);
    throw new CliExit(
      interrupts.by === "SIGHUP" ? ExitCode.hangup : ExitCode.interrupted,
      `interrupted: ${report.tasks.length} of the suite's tasks ran (of ${loaded.suite.tasks.length}; those stopped midway failed)`,
      true,
    );
  }
  finish(report, flags.junit);
}

export async function evalMergeCommand(
  files: string[],
  flags: MergeFlags,
  { stdout }: CommandIo = processIo(),
): Promise<void> {
  const report = mergeReports(files.map((file) => ({ file, report: readReport(file) })));
  if (flags.output === "json") stdout.json(report);
  else stdout.write(reportTable(withOneLineStrings(report)));
  finish(report, flags.junit);
}

/** Writes JUnit if asked, then ends with 0 (all passed) or 1. */
function finish(report: EvalReport, junit: string | undefined): void {
  writeJunit(report, junit);
  if (report.totals.failed > 0) throw new CliExit(ExitCode.failure, "", true);
}

function writeJunit(report: EvalReport, junit: string | undefined): void {
  if (junit) {
    try {
      writeFileSync(junit, reportJunit(report));
    } catch (error) {
      throw new CliExit(ExitCode.usage, `--junit ${junit}: cannot write: ${(error as Error).message}`);
    }
  }
}

/** `20261126-235959-ab12cd`: sortable, unique enough for parallel evals. */
function runName(): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  return `${stamp}-${randomBytes(3).toString("hex")}`;
}
