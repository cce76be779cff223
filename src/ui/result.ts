import type { AgentUsageReport, Usage } from "../kernel/conversation/usage.ts";
import { addUsage, emptyUsage, roundUsd, totalTokens } from "../kernel/conversation/usage.ts";
import { emptyActivity, type RunActivity, type ToolCallOutcome } from "../kernel/run-events/activity.ts";
import type { FinishReason, RunResult, RunStatus } from "../kernel/run-events/events.ts";
import type { Plan } from "../kernel/run-events/plan.ts";
import { SCHEMA_VERSION } from "./json-shape.ts";
import type { WarningFields } from "./result-warnings.ts";

/** The end of a run as a renderer receives it: the run's result, its session and the process exit code. */
export interface FinishedRun extends RunResult {
  sessionId: string;
  /**
   * False when the session is not kept (`--no-session-persistence`): its id names nothing that could be
   * shown or continued, so the end shows none (JSON keeps `session_id` for correlating events).
   */
  sessionSaved?: boolean;
  /** The code the process will exit with (decided by the caller; echoed in `exit_code`). */
  exitCode: number;
  /** The command that continues this session, e.g. `agent run --resume ab12cd` (echoed in `resume_command`). */
  resumeCommand?: string;
  /** A replayed run: what the served exchanges cost when recorded (the run itself costs 0). */
  recordedCostUsd?: number;
  /** The git worktree the run worked in (`--worktree`): echoed in `worktree`, shown at the end. */
  worktree?: FinishedWorktree;
}

/** Where a worktree run's work is, and the commands that review and merge it (docs/worktrees.md). */
export interface FinishedWorktree {
  name: string;
  branch: string;
  path: string;
  /** The commit made of the run's changes, when it changed anything. */
  commit?: string;
  reviewCommand: string;
  mergeCommand: string;
}

/** The lines a terminal shows about a run's worktree. */
export function worktreeLines(worktree: FinishedWorktree): string[] {
  const commit = worktree.commit !== undefined ? `, commit ${worktree.commit.slice(0, 12)}` : "";
  return [
    `worktree ${worktree.name}: ${worktree.path} (branch ${worktree.branch}${commit})`,
    `review: ${worktree.reviewCommand}`,
    `merge: ${worktree.mergeCommand}`,
  ];
}

/** Token counts in the machine-readable output (snake_case, like the rest of the result). */
export interface TokenCounts {
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  /** The part of output_tokens spent on reasoning (informational: already in output_tokens). */
  reasoning_tokens: number;
  total_tokens: number;
}

/** One agent's usage in the result: its own calls, and its subtree (itself plus descendants). */
export interface AgentUsageRecord extends TokenCounts {
  agent: string;
  name: string;
  parent?: string;
  depth: number;
  model: string;
  cost_usd: number;
  subtree: TokenCounts & { cost_usd: number };
}

/** The `usage` of a result: totals for the whole run, and one entry per agent (root first). */
export interface UsageRecord extends TokenCounts {
  cost_usd: number;
  agents: AgentUsageRecord[];
}

/** One tool call in the result. */
export interface ToolCallRow {
  agent: string;
  tool: string;
  target: string;
  outcome: ToolCallOutcome;
}

/**
 * One refused call in the result (like `claude -p`'s `permission_denials`, with who decided and the
 * `--allow` rules that would have let it through; empty when no allow rule can, e.g. a deny rule decided).
 * `claude -p --output-format json` keeps `subtype: "success"` and lists `permission_denials` entries of
 * `{tool_name, tool_use_id, tool_input}` beside `num_turns` (an SDK's parser of that field:
 * https://hex.pm/packages/claude_code/0.36.4/files/lib/claude_code/session/permission_denial.ex ; fields
 * of the result: https://dev.to/aobaworks/claude-code-output-format-json-fields-jq-python-parsing-3edj),
 * so a run with denials stays `status: "success"` here too, with `denials` non-empty.
 */
export interface DenialRow {
  agent: string;
  agent_name: string;
  tool: string;
  target: string;
  decided_by: string;
  rule?: string;
  reason: string;
  suggested_allow: string[];
}

/** What the run did: turns, stumbles, tool calls, denials, elided context (shared by run and helper results). */
export interface ActivityFields {
  turns: number;
  stumbles: number;
  tool_calls: ToolCallRow[];
  denials: DenialRow[];
  /** True when old tool results were elided (or the history compacted) to fit the context window. */
  context_elided: boolean;
}

/** The activity fields of a result, snake_case. */
export function activityFields(activity: RunActivity = emptyActivity()): ActivityFields {
  return {
    turns: activity.turns,
    stumbles: activity.stumbles,
    tool_calls: activity.toolCalls.map((c) => ({
      agent: c.agent,
      tool: c.tool,
      target: c.target,
      outcome: c.outcome,
    })),
    denials: activity.denials.map((d) => ({
      agent: d.agent,
      agent_name: d.agentName,
      tool: d.tool,
      target: d.target,
      decided_by: d.decidedBy,
      ...(d.rule !== undefined ? { rule: d.rule } : {}),
      reason: d.reason,
      suggested_allow: d.suggestedAllow,
    })),
    context_elided: activity.contextElided,
  };
}

/**
 * The result object: the last line of `--output stream-json` (the only one with `type: "result"`) and the
 * whole output of `--output json`. Built by {@link buildResultRecord} for both.
 */
export interface ResultRecord extends ActivityFields, WarningFields {
  type: "result";
  schema_version: number;
  status: RunStatus;
  /** Absent from an error result but an approval stop's (see {@link answerField}). */
  answer?: string;
  finish_reason: FinishReason;
  exit_code: number;
  session_id: string;
  /** The command that continues the session (add a goal to say what to do next). */
  resume_command?: string;
  usage: UsageRecord;
  error?: { kind: string; message: string };
  duration_ms?: number;
  /** Only for `--replay`: the recorded cost of the replayed exchanges (`usage.cost_usd` is 0). */
  recorded_cost_usd?: number;
  /** `--worktree`: where the work is and how to review and merge it. */
  worktree?: {
    name: string;
    branch: string;
    path: string;
    commit?: string;
    review_command: string;
    merge_command: string;
  };
  /** Only for `--plan` (docs/plan-mode.md): the plan the answer shows, as its fields. */
  plan?: Plan;
}

/** A usage as the snake_case token counts of the output. */
export function tokenCounts(usage: Usage): TokenCounts {
  return {
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    cache_read_tokens: usage.cacheReadTokens,
    cache_write_tokens: usage.cacheWriteTokens,
    reasoning_tokens: usage.reasoningTokens,
    total_tokens: totalTokens(usage),
  };
}

function agentRecord(report: AgentUsageReport): AgentUsageRecord {
  const record: AgentUsageRecord = {
    agent: report.agent,
    name: report.name,
    depth: report.depth,
    model: report.model,
    ...tokenCounts(report.usage),
    cost_usd: roundUsd(report.costUsd),
    subtree: { ...tokenCounts(report.subtree.usage), cost_usd: roundUsd(report.subtree.costUsd) },
  };
  if (report.parent !== undefined) record.parent = report.parent;
  return record;
}

/** Run totals: the root's subtree when the root is reported, else the sum over every agent. */
function totals(reports: readonly AgentUsageReport[]): { usage: Usage; costUsd: number } {
  const root = reports.find((r) => r.depth === 0);
  if (root) return root.subtree;
  let usage = emptyUsage();
  let costUsd = 0;
  for (const r of reports) {
    usage = addUsage(usage, r.usage);
    costUsd += r.costUsd;
  }
  return { usage, costUsd };
}

/**
 * The `answer` of a result object. docs/ci-and-json.md: "an error result (a missing key, a bad flag, a
 * provider error) has no `answer`", so `jq -r .answer` prints `null`: what the model said before a
 * provider failed is no answer. An `--on-ask fail` stop keeps its documented `"answer": ""`.
 */
export function answerField(
  status: RunStatus,
  finishReason: FinishReason,
  answer: string,
): { answer?: string } {
  return status === "error" && finishReason !== "approval_needed" ? {} : { answer };
}

/** Builds the result object shared by `--output json` and the last line of `--output stream-json`. */
export function buildResultRecord(
  run: FinishedRun,
  extra: { durationMs?: number; warnings?: WarningFields } = {},
): ResultRecord {
  const total = totals(run.usage);
  const record: ResultRecord = {
    type: "result",
    schema_version: SCHEMA_VERSION,
    status: run.status,
    ...answerField(run.status, run.finishReason, run.answer),
    finish_reason: run.finishReason,
    exit_code: run.exitCode,
    session_id: run.sessionId,
    usage: {
      ...tokenCounts(total.usage),
      cost_usd: roundUsd(total.costUsd),
      agents: run.usage.map(agentRecord),
    },
    ...activityFields(run.activity),
    ...(extra.warnings ?? { warnings: [] }),
  };
  if (run.resumeCommand !== undefined) record.resume_command = run.resumeCommand;
  if (run.error) record.error = { kind: run.error.kind, message: run.error.message };
  if (extra.durationMs !== undefined) record.duration_ms = Math.round(extra.durationMs);
  if (run.recordedCostUsd !== undefined) record.recorded_cost_usd = roundUsd(run.recordedCostUsd);
  if (run.worktree !== undefined) {
    const { name, branch, path, commit, reviewCommand, mergeCommand } = run.worktree;
    record.worktree = {
      name,
      branch,
      path,
      ...(commit !== undefined ? { commit } : {}),
      review_command: reviewCommand,
      merge_command: mergeCommand,
    };
  }
  if (run.plan) record.plan = run.plan;
  return record;
}
