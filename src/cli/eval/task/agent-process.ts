/**
 * One task's `agent run -o json` as its own process: our own entry (the same Bun and bin/agent.ts, or the
 * compiled binary itself), in the task's workspace copy, with its own XDG_STATE_HOME so each task has its
 * own session directory and -j N never mixes transcripts. The result is the run's one JSON object
 * (docs/ci-and-json.md); a process that printed none is reported with its exit code and stderr's end.
 *
 * The run sees what the suite states and nothing of the user's setup: its HOME and XDG_CONFIG_HOME are
 * empty folders of the task's own, so the user's config.yaml, agents, skills, AGENTS.md and MCP servers
 * never change the tools, prompts or models of a task. What a task uses comes with it: the built-in
 * agents, the workspace's project agents and skills, the suite's model and rules. A replay therefore
 * compares exactly what the suite uses, and a suite scores the same on every machine. The model catalog
 * cache (XDG_CACHE_HOME) stays the user's: facts about models, not a setup.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { MCP_AUTH_DIR_VARIABLE, mcpAuthDir } from "../../../tools/mcp/auth/token-store.ts";
import type { SuiteTask } from "../suite/suite-task.ts";
import { killOnExit } from "./kill-on-exit.ts";

/** The command that starts this same agent: Bun with bin/agent.ts from source, else the compiled binary. */
export function agentCommand(): string[] {
  const entry = resolve(import.meta.dir, "../../../../bin/agent.ts");
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
const runningAgents = killOnExit<ChildProcess>((child) => child.kill("SIGTERM"));

/**
 * The environment of a task's run: the user's (keys, base URLs, PATH) with the task's own empty home and
 * config folders and its own state folder (all under `taskHome`, created here), and the user's cache.
 * The MCP servers the suite names (`mcp_servers:`) are the only part of the user's config the run gets:
 * their entries, as the user wrote them, become the task's config.yaml (JSON is YAML), and the user's MCP
 * logins (`agent mcp login`) reach it through AGENT_MCP_AUTH_DIR (token-store.ts).
 */
export function isolatedEnv(
  env: Record<string, string | undefined>,
  taskHome: string,
  stateHome: string,
  mcpServers: Record<string, unknown> = {},
): Record<string, string | undefined> {
  const home = join(taskHome, "home");
  const config = join(taskHome, "config");
  for (const dir of [home, config, stateHome]) mkdirSync(dir, { recursive: true });
  if (Object.keys(mcpServers).length > 0) {
    mkdirSync(join(config, "agent"), { recursive: true });
    writeFileSync(join(config, "agent", "config.yaml"), `${JSON.stringify({ mcp_servers: mcpServers })}\n`);
  }
  const cache = env.XDG_CACHE_HOME || join(env.HOME || homedir(), ".cache");
  return {
    ...env,
    HOME: home,
    XDG_CONFIG_HOME: config,
    XDG_STATE_HOME: stateHome,
    XDG_CACHE_HOME: cache,
    [MCP_AUTH_DIR_VARIABLE]: mcpAuthDir(env),
  };
}

/**
 * Runs the task's agent; `stateHome` becomes its XDG_STATE_HOME, and `taskHome` holds its own empty HOME
 * and XDG_CONFIG_HOME (isolatedEnv above). Never rejects.
 */
export function runAgentProcess(
  args: string[],
  options: {
    cwd: string;
    taskHome: string;
    stateHome: string;
    env: Record<string, string | undefined>;
    /** The user's config entries of the MCP servers the suite names (isolatedEnv). */
    mcpServers?: Record<string, unknown>;
    /** Aborting sends the run SIGTERM: it ends as an interrupted run (exit 130) and writes its result. */
    signal?: AbortSignal;
  },
): Promise<AgentRunOutcome> {
  const env = isolatedEnv(options.env, options.taskHome, options.stateHome, options.mcpServers);
  const [program, ...prefix] = agentCommand();
  return new Promise((done) => {
    let stdout = "";
    let stderr = "";
    const child = spawn(program as string, [...prefix, ...args], {
      cwd: options.cwd,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    runningAgents.add(child);
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
