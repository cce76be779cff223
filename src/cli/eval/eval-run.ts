/**
 * Runs a suite: the tasks of the shard, at most `jobs` at a time, each through task-runner.ts, with a
 * progress line on stderr as each one ends. With a cassette folder, task ID records to or replays from
 * `DIR/ID.cassette.jsonl`; a replay whose cassette is missing fails before any task starts.
 */
import { existsSync, mkdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { specialKind } from "../../kernel/files/regular-file.ts";
import { ExitCode, terminalSafe } from "../../kernel/index.ts";
import { CliExit } from "../shared/command-module.ts";
import { inShard, type Shard } from "./eval-shard.ts";
import { EVAL_SCHEMA_VERSION, type EvalReport, type TaskReport, totalsOf } from "./report/eval-report.ts";
import type { Suite } from "./suite/suite-load.ts";
import type { SuiteTask } from "./suite/suite-task.ts";
import { runTask } from "./task/task-runner.ts";

export interface EvalRunOptions {
  jobs: number;
  outDir: string;
  record?: string;
  replay?: string;
  shard?: Shard;
  keepWorkspaces: boolean;
  env: Record<string, string | undefined>;
  /** The user's config entries of the MCP servers the suite names (suite-mcp.ts). */
  mcpServers?: Record<string, unknown>;
  /** Aborted by Ctrl-C or SIGTERM: running tasks are stopped, the rest never start. */
  signal?: AbortSignal;
  /** A line per finished task (stderr). */
  progress: (line: string) => void;
}

/** What the file at `path` is when it is not a regular file (a link is followed), else null. */
function specialKindOf(path: string): string | null {
  try {
    return specialKind(statSync(path));
  } catch (error) {
    return `unreadable (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
  }
}

/** A task's cassette in a record or replay folder. */
export function cassetteFile(dir: string, taskId: string): string {
  return join(resolve(dir), `${taskId}.cassette.jsonl`);
}

export async function runSuite(suite: Suite, options: EvalRunOptions): Promise<EvalReport> {
  const selected = suite.tasks
    .map((task, index) => ({ task, index }))
    .filter(({ index }) => inShard(index, options.shard));
  if (options.replay) {
    const replay = options.replay;
    const missing = selected.filter(({ task }) => !existsSync(cassetteFile(replay, task.id)));
    if (missing.length > 0)
      throw new CliExit(
        ExitCode.usage,
        `--replay ${replay}: no cassette for ${missing.map(({ task }) => `${task.id} (${cassetteFile(replay, task.id)})`).join(", ")}; record them with --record ${replay}`,
      );
    // Cassettes may come with the repository: a FIFO or a link to a device is refused before any task
    // starts (each run reads its cassette through the guarded reader too, src/llm/cassette/cassette.ts).
    const special = selected.flatMap(({ task }) => {
      const kind = specialKindOf(cassetteFile(replay, task.id));
      return kind ? [`${cassetteFile(replay, task.id)} is ${kind}`] : [];
    });
    if (special.length > 0)
      throw new CliExit(
        ExitCode.usage,
        `--replay ${replay}: ${special.join(", ")}, not a regular file; refused`,
      );
  }
  if (options.record) {
    try {
      mkdirSync(options.record, { recursive: true });
    } catch (error) {
      throw new CliExit(
        ExitCode.usage,
        `--record ${options.record}: cannot create the folder: ${(error as Error).message}`,
      );
    }
  }
  const startedAt = new Date();
  const started = performance.now();
  const reports = await inParallel(selected, options.jobs, options.signal, async ({ task, index }) => {
    const report = await runTask(task, index, {
      outDir: options.outDir,
      cassette: cassetteFor(task, options),
      keepWorkspace: options.keepWorkspaces,
      env: options.env,
      mcpServers: options.mcpServers ?? {},
      warn: options.progress,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    options.progress(progressLine(report));
    return report;
  });
  const report: EvalReport = {
    type: "eval_report",
    schema_version: EVAL_SCHEMA_VERSION,
    suite: suite.file,
    name: suite.name,
    mode: options.replay ? "replay" : options.record ? "record" : "live",
    started_at: startedAt.toISOString(),
    duration_ms: Math.round(performance.now() - started),
    tasks: reports,
    totals: totalsOf(reports),
  };
  if (options.shard) report.shard = options.shard;
  return report;
}

function cassetteFor(task: SuiteTask, options: EvalRunOptions): { record?: string; replay?: string } {
  if (options.replay) return { replay: cassetteFile(options.replay, task.id) };
  if (options.record) return { record: cassetteFile(options.record, task.id) };
  return {};
}

export function progressLine(task: TaskReport): string {
  const mark = task.passed ? "✓" : "✗";
  // A failure can quote the model or a check: one terminal-safe line.
  const why = task.passed ? "" : `: ${terminalSafe(task.failures[0] ?? "failed").replace(/\s*\n\s*/g, " ")}`;
  return `${mark} ${task.id} (${task.turns} turn${task.turns === 1 ? "" : "s"}, ${(task.duration_ms / 1000).toFixed(1)} s)${why}`;
}

/**
 * Maps `items` with at most `limit` calls of `work` running at once; results keep the items' order.
 * Once `signal` is aborted no further item starts (the results hold only those that ran).
 */
async function inParallel<T, R>(
  items: readonly T[],
  limit: number,
  signal: AbortSignal | undefined,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  const worker = async () => {
    while (next < items.length && !signal?.aborted) {
      const at = next;
      next += 1;
      results[at] = await work(items[at] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results.filter((result) => result !== undefined);
}
