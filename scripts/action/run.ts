/**
 * The action's run step (action.yml runs `bun scripts/action/run.ts`): reads the inputs from the
 * environment (inputs.ts), runs `bin/agent run -o json` of this checkout with the goal on stdin and an
 * argument array (agent-argv.ts), then writes the step's outputs (`answer`, `status`, `exit-code`,
 * `cost-usd`, `session-file`) to `$GITHUB_OUTPUT`, a Markdown summary to `$GITHUB_STEP_SUMMARY`, the JSON
 * result to `output-file` when asked, and exits with agent's exit code, so a non-zero exit fails the step
 * (the caller's `continue-on-error` decides what that means for the job). Inputs that are wrong exit 2
 * with the same outputs and an error naming the input. agent's progress (stderr) goes to the log.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { sessionsDir } from "../../src/kernel/files/paths.ts";
import { agentRunArgs } from "./agent-argv.ts";
import { appendSummary, errorAnnotation, maskCommand, writeOutputs } from "./github-files.ts";
import { type ActionInputs, InputError, readInputs } from "./inputs.ts";
import { parseResult } from "./parse-result.ts";
import { type ActionResult, summaryMarkdown } from "./summary.ts";

type Env = Record<string, string | undefined>;

/** bin/agent.ts of the checkout this script belongs to (the action's own, `github.action_path`). */
const AGENT_ENTRY = resolve(import.meta.dir, "..", "..", "bin", "agent.ts");

/** The runner's environment without the `INPUT_*` variables, plus the provider variables given as inputs. */
function agentEnv(env: Env, inputs: ActionInputs): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && !name.startsWith("INPUT_")) out[name] = value;
  }
  return { ...out, ...inputs.providerEnv };
}

/** Runs agent; resolves with its exit code and stdout (stderr goes straight to the step's log). */
async function runAgent(
  inputs: ActionInputs,
  env: Record<string, string>,
): Promise<{ code: number; stdout: string }> {
  // As bin/agent starts Bun: the working directory's .env and bunfig.toml are the repository's, never read.
  const bun = [process.execPath, "--no-env-file", "--config=/dev/null"];
  const proc = Bun.spawn([...bun, AGENT_ENTRY, "run", ...agentRunArgs(inputs)], {
    cwd: inputs.workingDirectory,
    env,
    stdin: new Blob([inputs.goal]),
    stdout: "pipe",
    stderr: "inherit",
  });
  // A cancelled job signals this step: pass it on, so agent ends its run and still prints its result.
  const forward = (signal: NodeJS.Signals) => () => proc.kill(signal);
  process.on("SIGINT", forward("SIGINT"));
  process.on("SIGTERM", forward("SIGTERM"));
  const [stdout, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  return { code, stdout };
}

/** The step's outputs for a result. */
function outputsOf(result: ActionResult, sessionFile: string): Record<string, string> {
  return {
    answer: result.answer ?? "",
    status: result.status ?? "error",
    "exit-code": String(result.exit_code),
    "cost-usd": (result.usage?.cost_usd ?? 0).toFixed(6),
    "session-file": sessionFile,
  };
}

/** Writes outputs, summary and annotation; returns the exit code of the step. */
function report(env: Env, result: ActionResult, sessionFile = ""): number {
  writeOutputs(env.GITHUB_OUTPUT, outputsOf(result, sessionFile));
  appendSummary(env.GITHUB_STEP_SUMMARY, summaryMarkdown(result));
  if (result.exit_code !== 0) {
    const why = result.error?.message ?? `finish reason ${result.finish_reason ?? "unknown"}`;
    process.stdout.write(errorAnnotation(`agent run exited ${result.exit_code}: ${why}`));
  }
  return result.exit_code;
}

export async function main(env: Env = process.env): Promise<number> {
  let inputs: ActionInputs;
  try {
    inputs = readInputs(env);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    return report(env, {
      type: "result",
      status: "error",
      exit_code: 2,
      error: { kind: "usage", message: error.message },
    });
  }
  for (const secret of inputs.secrets) process.stdout.write(maskCommand(secret));
  const childEnv = agentEnv(env, inputs);
  const { code, stdout } = await runAgent(inputs, childEnv);
  const result = parseResult(stdout, code);
  if (inputs.outputFile !== undefined) {
    mkdirSync(dirname(inputs.outputFile), { recursive: true });
    writeFileSync(inputs.outputFile, `${JSON.stringify(result)}\n`, "utf8");
  }
  const transcript = result.session_id ? join(sessionsDir(childEnv), `${result.session_id}.jsonl`) : "";
  return report(env, result, transcript !== "" && existsSync(transcript) ? transcript : "");
}

if (import.meta.main) process.exit(await main());
