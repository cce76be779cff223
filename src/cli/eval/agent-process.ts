/**
 * One task's `agent run -o json` as its own process: our own entry (the same Bun and bin/agent.ts, or the
 * compiled binary itself), in the task's workspace copy, with its own XDG_STATE_HOME so each task has its
 * own session directory and -j N never mixes transcripts. The result is the run's one JSON object
 * (docs/ci-and-json.md); a process that printed none is reported with its exit code and stderr's end.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { MCP_AUTH_DIR_VARIABLE, mcpAuthDir } from "../../tools/mcp/auth/token-store.ts";
import type { SuiteTask } from "./suite-task.ts";

/** The command that starts this same agent: Bun with bin/agent.ts from source, else the compiled binary. */
export function agentCommand(): string[] {
  const entry = resolve(import.meta.dir, "../../../bin/agent.ts");
  // As bin/agent starts Bun: the task's workspace is a repository's, and Bun would otherwise load its .env
  // into the run's environment and its bunfig.toml (whose `preload` runs its code) before ours.
  return existsSync(entry)
    ? [process.execPath, "--no-env-file", "--config=/dev/null", entry]
    : [process.execPath];
}

/** What eval reads of the run's JSON result. */
export interface RunResultJson {
  status?: string;
  answer?: unknown;
  finish_reason?: string;
  exit_code?: number;
  session_id?: string;
  recorded_cost_usd?: number;
  turns?: number;
  denials?: unknown[];
  usage?: { input_tokens?: number; output_tokens?: number; total_tokens?: number; cost_usd?: number };
  error?: { kind?: string; message?: string };
}

export interface AgentRunOutcome {
  exitCode: number;
  /** The parsed result, or undefined when stdout held no JSON object. */
  result?: RunResultJson;
  stdout: string;
  stderrTail: string;
}

export interface CassetteChoice {
  record?: string;
  replay?: string;
}

/** The `agent run` arguments of a task (the goal after `--`, so a goal starting with "-" stays a goal). */
export function runArguments(task: SuiteTask, workspace: string, cassette: CassetteChoice): string[] {
  const args = ["run", "-o", "json", "--cwd", workspace, "--sandbox", task.sandbox, "--on-ask", task.onAsk];
  if (task.agent) args.push("--agent", task.agent);
  if (task.model) args.push("--model", task.model);
  if (task.maxTurns !== undefined) args.push("--max-turns", String(task.maxTurns));
  if (task.maxBudgetUsd !== undefined) args.push("--max-budget-usd", String(task.maxBudgetUsd));
  if (task.maxTokens !== undefined) args.push("--max-tokens", String(task.maxTokens));
  if (task.timeoutS !== undefined) args.push("--timeout", String(task.timeoutS));
  if (task.schema) args.push("--schema", task.schema);
  for (const rule of task.allow) args.push("--allow", rule);
  for (const rule of task.deny) args.push("--deny", rule);
  if (cassette.record) args.push("--record", cassette.record);
  if (cassette.replay) args.push("--replay", cassette.replay);
  args.push("--", task.goal);
  return args;
}

/** Runs still going; each gets SIGTERM if eval exits first (a second signal's forced exit), which is
 * that run's own second signal: it exits at once, sweeping the commands it started. */
const runningAgents = new Set<ChildProcess>();
let exitHookInstalled = false;

function trackAgent(child: ChildProcess): void {
  runningAgents.add(child);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", () => {
    for (const running of runningAgents) running.kill("SIGTERM");
  });
}

/** Runs the task's agent; `stateHome` becomes its XDG_STATE_HOME (created here). Never rejects. */
export function runAgentProcess(
  args: string[],
  options: {
    cwd: string;
    stateHome: string;
    env: Record<string, string | undefined>;
    /** Aborting sends the run SIGTERM: it ends as an interrupted run (exit 130) and writes its result. */
    signal?: AbortSignal;
  },
): Promise<AgentRunOutcome> {
  mkdirSync(options.stateHome, { recursive: true });
  const [program, ...prefix] = agentCommand();
  return new Promise((done) => {
    let stdout = "";
    let stderr = "";
    const child = spawn(program as string, [...prefix, ...args], {
      cwd: options.cwd,
      // Its own state folder for its transcript, but the user's MCP logins (token-store.ts).
      env: {
        ...options.env,
        XDG_STATE_HOME: options.stateHome,
        [MCP_AUTH_DIR_VARIABLE]: mcpAuthDir(options.env),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    trackAgent(child);
    const stop = () => child.kill("SIGTERM");
    if (options.signal?.aborted) stop();
    options.signal?.addEventListener("abort", stop, { once: true });
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString("utf8")).slice(-4000);
    });
    child.on("error", (error) =>
      done({ exitCode: 70, stdout, stderrTail: `cannot start agent: ${error.message}` }),
    );
    child.on("close", (code, signal) => {
      runningAgents.delete(child);
      options.signal?.removeEventListener("abort", stop);
      const exitCode = code ?? (signal === "SIGINT" ? 130 : 70);
      const result = lastJsonObject(stdout);
      done({ exitCode, stdout, stderrTail: stderr, ...(result ? { result } : {}) });
    });
  });
}

/** The run prints exactly one JSON object in -o json mode; tolerate anything before it. */
function lastJsonObject(text: string): RunResultJson | undefined {
  const lines = text.trim().split("\n");
  for (let i = lines.length - 1; i >= 0; i--) {
    try {
      const value: unknown = JSON.parse(lines[i] as string);
      if (value && typeof value === "object" && !Array.isArray(value)) return value as RunResultJson;
    } catch {
      // not this line
    }
  }
  return undefined;
}

/** The task's own transcript: the one session file in its state directory. */
export function transcriptPath(stateHome: string, sessionId: string | undefined): string | undefined {
  if (!sessionId) return undefined;
  const file = join(stateHome, "agent", "sessions", `${sessionId}.jsonl`);
  return existsSync(file) ? file : undefined;
}
