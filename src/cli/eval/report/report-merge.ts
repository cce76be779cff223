/**
 * `agent eval merge A.json B.json ...`: the shard reports of one suite as one report, tasks back in suite
 * order and totals recomputed, so n shards merge to what one unsharded run reports. Reports of different
 * suites, or two holding the same task, are refused (exit 2): a merge that double counts would mislead.
 */
import { ExitCode } from "../../../kernel/index.ts";
import { CliExit } from "../../shared/command-module.ts";
import type { EvalReport, TaskReport } from "./eval-report.ts";
import { totalsOf } from "./eval-report.ts";

export function mergeReports(reports: readonly { file: string; report: EvalReport }[]): EvalReport {
  const first = reports[0];
  if (!first) throw new CliExit(ExitCode.usage, "agent eval merge: give the reports to merge");
  const owner = new Map<string, string>();
  const tasks: TaskReport[] = [];
  for (const { file, report } of reports) {
    if (report.suite !== first.report.suite)
      throw new CliExit(
        ExitCode.usage,
        `${file} is a report of suite ${report.suite}, ${first.file} of ${first.report.suite}; merge reports of one suite`,
      );
    for (const task of report.tasks) {
      const earlier = owner.get(task.id);
      if (earlier !== undefined)
        throw new CliExit(
          ExitCode.usage,
          `task ${task.id} is in both ${earlier} and ${file}; each task must be in one shard`,
        );
      owner.set(task.id, file);
      tasks.push(task);
    }
  }
  tasks.sort((a, b) => a.index - b.index);
  return {
    type: "eval_report",
    schema_version: first.report.schema_version,
    suite: first.report.suite,
    name: first.report.name,
    mode: first.report.mode,
    started_at: reports.map(({ report }) => report.started_at).sort()[0] ?? first.report.started_at,
    duration_ms: Math.max(...reports.map(({ report }) => report.duration_ms)),
    tasks,
    totals: totalsOf(tasks),
  };
}
