/**
 * One task, start to end: a fresh workspace copy, its `agent run -o json` process, its checks in that
 * copy, and the task's report. Everything the task leaves (the run's result and answer, its state
 * directory with the transcript) goes under `<out>/<task id>/`; the workspace copy is removed afterwards
 * unless kept.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { TaskReport } from "../report/eval-report.ts";
import type { SuiteTask } from "../suite/suite-task.ts";
import {
  type AgentRunOutcome,
  type CassetteChoice,
  runAgentProcess,
  runArguments,
  transcriptPath,
} from "./agent-process.ts";
import { checkShell } from "./check-sandbox.ts";
import { runChecks } from "./task-checks.ts";
import { taskFailures } from "./task-outcome.ts";
import { prepareWorkspace, WorkspaceError } from "./task-workspace.ts";

export interface TaskRunOptions {
  /** Where each task's folder goes. */
  outDir: string;
  /** The cassette file of this task, when recording or replaying. */
  cassette: CassetteChoice;
  keepWorkspace: boolean;
  env: Record<string, string | undefined>;
  /** The user's config entries of the MCP servers the suite names; the task gets those it names. */
  mcpServers: Record<string, unknown>;
  /** Set by Ctrl-C or SIGTERM: the running agent is stopped, and checks are skipped. */
  signal?: AbortSignal;
  /** A line on stderr (e.g. the sandbox is unavailable for the checks). */
  warn: (line: string) => void;
}

export async function runTask(task: SuiteTask, index: number, options: TaskRunOptions): Promise<TaskReport> {
  const started = performance.now();
  const taskDir = join(options.outDir, task.id);
  mkdirSync(taskDir, { recursive: true });
  let workspace: ReturnType<typeof prepareWorkspace>;
  try {
    workspace = prepareWorkspace(task.id, task.workspace);
  } catch (error) {
    if (!(error instanceof WorkspaceError)) throw error;
    return failedToStart(task, index, error.message, performance.now() - started);
  }
  try {
    const stateHome = join(taskDir, "state");
    const run = await runAgentProcess(runArguments(task, workspace.path, options.cassette), {
      cwd: workspace.path,
      taskHome: taskDir,
      stateHome,
      env: options.env,
      mcpServers: Object.fromEntries(task.mcpServers.map((name) => [name, options.mcpServers[name]])),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const answer = answerText(run);
    const answerFile = join(taskDir, "answer.txt");
    const resultFile = join(taskDir, "result.json");
    writeFileSync(answerFile, answer);
    writeFileSync(resultFile, run.result ? `${JSON.stringify(run.result, null, 2)}\n` : run.stdout);
    const shell = await checkShell(task.sandbox, workspace.path, taskDir, options.env, {
      AGENT_EVAL_TASK: task.id,
      AGENT_EVAL_ANSWER: answerFile,
      AGENT_EVAL_RESULT: resultFile,
    });
    if (shell.unavailable && task.checks.length > 0)
      options.warn(`${task.id}: checks run unsandboxed: ${shell.unavailable}`);
    const checks = await runChecks(task.checks, workspace.path, shell, options.signal);
    const failures = taskFailures(task.expect, run, answer, checks);
    // Stopped by Ctrl-C or SIGTERM before every check ran: never a pass.
    if (checks.length < task.checks.length)
      failures.push(
        `interrupted: ${task.checks.length - checks.length} of ${task.checks.length} checks did not run`,
      );
    const result = run.result ?? {};
    const usage = result.usage ?? {};
    const report: TaskReport = {
      id: task.id,
      index,
      goal: task.goal,
      passed: failures.length === 0,
      failures,
      status: result.status ?? "error",
      exit_code: run.exitCode,
      finish_reason: result.finish_reason ?? "error",
      turns: result.turns ?? 0,
      input_tokens: usage.input_tokens ?? 0,
      output_tokens: usage.output_tokens ?? 0,
      total_tokens: usage.total_tokens ?? 0,
      cost_usd: usage.cost_usd ?? 0,
      duration_ms: Math.round(performance.now() - started),
      denials: result.denials?.length ?? 0,
      checks,
      answer,
    };
    if (result.recorded_cost_usd !== undefined) report.recorded_cost_usd = result.recorded_cost_usd;
    if (result.session_id) report.session_id = result.session_id;
    const transcript = transcriptPath(stateHome, result.session_id);
    if (transcript) report.transcript = transcript;
    if (options.keepWorkspace) report.workspace = workspace.path;
    return report;
  } finally {
    if (!options.keepWorkspace) workspace.remove();
  }
}

/** The answer as text: a --schema answer is JSON, printed compactly. */
function answerText(run: AgentRunOutcome): string {
  const answer = run.result?.answer;
  if (answer === undefined || answer === null) return "";
  return typeof answer === "string" ? answer : JSON.stringify(answer);
}

function failedToStart(task: SuiteTask, index: number, message: string, elapsed: number): TaskReport {
  return {
    id: task.id,
    index,
    goal: task.goal,
    passed: false,
    failures: [message],
    status: "error",
    exit_code: 70,
    finish_reason: "error",
    turns: 0,
    input_tokens: 0,
    output_tokens: 0,
    total_tokens: 0,
    cost_usd: 0,
    duration_ms: Math.round(elapsed),
    denials: 0,
    checks: [],
    answer: "",
  };
}
