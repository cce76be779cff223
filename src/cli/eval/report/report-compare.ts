/**
 * `--compare OLD.json`: how this report differs from an earlier one, per task (matched by id) and in
 * total: pass/fail changes, and the change in turns, tokens, cost and wall time. Tasks in only one of
 * the two are listed as added or removed. As text (after the table) and, in `-o json`, as the report's
 * `comparison` object.
 */
import type { EvalReport, ReportTotals, TaskReport } from "./eval-report.ts";

export interface TaskDifference {
  id: string;
  /** `same`, `fixed` (failed, now passes), `broken` (passed, now fails), `added`, `removed`. */
  change: "same" | "fixed" | "broken" | "added" | "removed";
  passed: { old: boolean | null; new: boolean | null };
  turns: number;
  total_tokens: number;
  cost_usd: number;
  duration_ms: number;
}

export interface Comparison {
  against: string;
  tasks: TaskDifference[];
  totals: {
    passed: { old: number; new: number };
    turns: number;
    total_tokens: number;
    cost_usd: number;
    task_duration_ms: number;
  };
}

const round6 = (n: number) => Math.round(n * 1e6) / 1e6;

export function compareReports(old: EvalReport, now: EvalReport, against: string): Comparison {
  const before = new Map(old.tasks.map((task) => [task.id, task]));
  const seen = new Set<string>();
  const tasks: TaskDifference[] = now.tasks.map((task) => {
    seen.add(task.id);
    return difference(task.id, before.get(task.id), task);
  });
  for (const task of old.tasks) if (!seen.has(task.id)) tasks.push(difference(task.id, task, undefined));
  return { against, tasks, totals: totalsDifference(old.totals, now.totals) };
}

function difference(id: string, old: TaskReport | undefined, now: TaskReport | undefined): TaskDifference {
  const delta = (pick: (task: TaskReport) => number) => (now ? pick(now) : 0) - (old ? pick(old) : 0);
  const change = !old
    ? "added"
    : !now
      ? "removed"
      : old.passed === now.passed
        ? "same"
        : now.passed
          ? "fixed"
          : "broken";
  return {
    id,
    change,
    passed: { old: old ? old.passed : null, new: now ? now.passed : null },
    turns: delta((t) => t.turns),
    total_tokens: delta((t) => t.total_tokens),
    cost_usd: round6(delta((t) => t.cost_usd)),
    duration_ms: delta((t) => t.duration_ms),
  };
}

function totalsDifference(old: ReportTotals, now: ReportTotals): Comparison["totals"] {
  return {
    passed: { old: old.passed, new: now.passed },
    turns: now.turns - old.turns,
    total_tokens: now.total_tokens - old.total_tokens,
    cost_usd: round6(now.cost_usd - old.cost_usd),
    task_duration_ms: now.task_duration_ms - old.task_duration_ms,
  };
}

const signed = (n: number, digits = 0) => `${n > 0 ? "+" : n < 0 ? "-" : "±"}${Math.abs(n).toFixed(digits)}`;
const mark = (passed: boolean | null) => (passed === null ? "-" : passed ? "pass" : "FAIL");

/** The comparison as text lines: `fix-test  FAIL -> pass  turns +2  tokens -310  cost -0.0012  time +1.3 s`. */
export function comparisonText(comparison: Comparison): string {
  const width = Math.max(5, ...comparison.tasks.map((task) => task.id.length));
  const lines = [`compared with ${comparison.against}:`];
  for (const task of comparison.tasks) {
    const state = `${mark(task.passed.old)} -> ${mark(task.passed.new)}`.padEnd(12);
    const note = task.change === "same" ? "" : `  (${task.change})`;
    lines.push(
      `  ${task.id.padEnd(width)}  ${state}  turns ${signed(task.turns)}  tokens ${signed(task.total_tokens)}  cost ${signed(task.cost_usd, 4)}  time ${signed(task.duration_ms / 1000, 1)} s${note}`,
    );
  }
  const t = comparison.totals;
  lines.push(
    `  ${"total".padEnd(width)}  passed ${t.passed.old} -> ${t.passed.new}  turns ${signed(t.turns)}  tokens ${signed(t.total_tokens)}  cost ${signed(t.cost_usd, 4)}  time ${signed(t.task_duration_ms / 1000, 1)} s`,
  );
  return `${lines.join("\n")}\n`;
}
