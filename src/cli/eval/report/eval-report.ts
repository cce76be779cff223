/**
 * The eval report (`agent eval -o json`, docs/eval.md "Report JSON"): one object per suite run or merge,
 * snake_case like the run result, with its own schema_version. Totals are always computed from the
 * tasks, so a merged report's totals are the sum of its shards'.
 */
import type { CheckResult } from "../task/task-checks.ts";

export const EVAL_SCHEMA_VERSION = 1;

export interface TaskReport {
  id: string;
  /** Position in the suite (0-based), so shard reports merge back into suite order. */
  index: number;
  goal: string;
  passed: boolean;
  /** Why it failed, one line each (the run's outcome, an expectation, a check). */
  failures: string[];
  status: string;
  exit_code: number;
  finish_reason: string;
  turns: number;
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  cost_usd: number;
  /** With --replay: what the served exchanges cost when recorded. */
  recorded_cost_usd?: number;
  /** Wall time of the task: workspace, run and checks. */
  duration_ms: number;
  denials: number;
  checks: CheckResult[];
  answer: string;
  session_id?: string;
  /** The run's transcript (its own state directory per task). */
  transcript?: string;
  /** The workspace copy, with --keep-workspaces (otherwise removed after the checks). */
  workspace?: string;
}

export interface ReportTotals {
  tasks: number;
  passed: number;
  failed: number;
  turns: number;
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  cost_usd: number;
  recorded_cost_usd: number;
  /** Sum of the tasks' wall times (the work done, whatever ran in parallel). */
  task_duration_ms: number;
  denials: number;
}

export interface EvalReport {
  type: "eval_report";
  schema_version: number;
  suite: string;
  name: string;
  mode: "live" | "record" | "replay";
  shard?: { index: number; count: number };
  started_at: string;
  /** Wall time of the whole eval (for a merge: the longest shard's). */
  duration_ms: number;
  tasks: TaskReport[];
  totals: ReportTotals;
}

const round6 = (n: number) => Math.round(n * 1e6) / 1e6;

export function totalsOf(tasks: readonly TaskReport[]): ReportTotals {
  const sum = (pick: (task: TaskReport) => number) => tasks.reduce((total, task) => total + pick(task), 0);
  const passed = tasks.filter((task) => task.passed).length;
  return {
    tasks: tasks.length,
    passed,
    failed: tasks.length - passed,
    turns: sum((t) => t.turns),
    input_tokens: sum((t) => t.input_tokens),
    output_tokens: sum((t) => t.output_tokens),
    total_tokens: sum((t) => t.total_tokens),
    cost_usd: round6(sum((t) => t.cost_usd)),
    recorded_cost_usd: round6(sum((t) => t.recorded_cost_usd ?? 0)),
    task_duration_ms: sum((t) => t.duration_ms),
    denials: sum((t) => t.denials),
  };
}
