/** The eval report as a text table (the default output): one row per task, a total row, then why each failed task failed. */
import { terminalSafe } from "../../kernel/index.ts";
import type { EvalReport, ReportTotals, TaskReport } from "./eval-report.ts";

const HEADERS = ["task", "result", "finish", "turns", "tokens", "cost $", "time s", "denials"];

export function reportTable(report: EvalReport): string {
  const rows = report.tasks.map((task) => row(task));
  rows.push(totalRow(report.totals));
  const widths = HEADERS.map((header, i) => Math.max(header.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i < 3 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  const out = [line(HEADERS), ...rows.slice(0, -1).map(line), line(rows.at(-1) ?? [])];
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
    task.cost_usd.toFixed(4),
    (task.duration_ms / 1000).toFixed(1),
    String(task.denials),
  ];
}

function totalRow(totals: ReportTotals): string[] {
  return [
    "total",
    `${totals.passed}/${totals.tasks}`,
    "",
    String(totals.turns),
    String(totals.total_tokens),
    totals.cost_usd.toFixed(4),
    (totals.task_duration_ms / 1000).toFixed(1),
    String(totals.denials),
  ];
}

function oneLine(text: string): string {
  return terminalSafe(text).replace(/\s*\n\s*/g, " ");
}
