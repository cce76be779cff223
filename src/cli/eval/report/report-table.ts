/** The eval report as a text table (the default output): one row per task, a total row, then why each failed task failed. */
import { terminalSafe } from "../../../kernel/index.ts";
import type { EvalReport, TaskReport } from "./eval-report.ts";

const HEADERS = ["task", "result", "finish", "turns", "tokens", "cost $", "time s", "denials"];

export function reportTable(report: EvalReport): string {
  const rows = report.tasks.map((task) => row(task));
  rows.push(totalRow(report));
  const widths = HEADERS.map((header, i) => Math.max(header.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i < 3 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  const out = [line(HEADERS), ...rows.slice(0, -1).map(line), line(rows.at(-1) ?? [])];
  if (report.tasks.some((task) => task.recorded_cost_usd !== undefined))
    out.push(
      "",
      `${RECORDED_MARK}: what the recorded run cost; replaying it spent nothing (recorded_cost_usd)`,
    );
  const failed = report.tasks.filter((task) => !task.passed);
  if (failed.length > 0) {
    out.push("");
    for (const task of failed)
      for (const failure of task.failures) out.push(`${oneLine(task.id)}: ${oneLine(failure)}`);
  }
  return `${out.join("\n")}\n`;
}

function row(task: TaskReport): string[] {
  return [
    oneLine(task.id),
    task.passed ? "pass" : "FAIL",
    task.finish_reason,
    String(task.turns),
    String(task.total_tokens),
    costCell(task.cost_usd, task.recorded_cost_usd),
    (task.duration_ms / 1000).toFixed(1),
    String(task.denials),
  ];
}

function totalRow(report: EvalReport): string[] {
  const totals = report.totals;
  return [
    "total",
    `${totals.passed}/${totals.tasks}`,
    "",
    String(totals.turns),
    String(totals.total_tokens),
    costCell(
      totals.cost_usd,
      report.tasks.some((t) => t.recorded_cost_usd !== undefined) ? totals.recorded_cost_usd : undefined,
    ),
    (totals.task_duration_ms / 1000).toFixed(1),
    String(totals.denials),
  ];
}

/** Marks a replayed task's cost cell: the cost its recording had, not money spent now. */
const RECORDED_MARK = "rec";

/** A cost cell: what was spent, or on a replay (nothing spent) the recorded cost, marked. */
function costCell(spent: number, recorded: number | undefined): string {
  if (recorded !== undefined && spent === 0) return `${recorded.toFixed(4)} ${RECORDED_MARK}`;
  return spent.toFixed(4);
}

function oneLine(text: string): string {
  return terminalSafe(text).replace(/\s*\n\s*/g, " ");
}
