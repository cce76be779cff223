/**
 * Runs a composite action's steps as the GitHub runner does, as far as a test on this machine can: reads
 * action.yml with `yaml`, fills the inputs (the caller's `with:` over the declared defaults), evaluates the
 * `${{ … }}` expressions of `env:`, `working-directory:`, `if:` and the outputs' `value:` (context look-ups
 * and `==`/`!=` against a string literal, all action.yml uses; anything else throws), and runs each `run:`
 * step with `bash --noprofile --norc -eo pipefail {0}` (GitHub's documented command for `shell: bash`) and
 * the environment the runner provides: a fresh `GITHUB_OUTPUT` and `GITHUB_STEP_SUMMARY` file per step,
 * `GITHUB_ACTION_PATH`, `GITHUB_WORKSPACE`, `RUNNER_TEMP`, `RUNNER_OS`. A step's outputs are read back from
 * its `GITHUB_OUTPUT` with the runner's two forms (`name=value`, `name<<DELIMITER`). A failed step fails the
 * action and skips the steps after it (their `if:` defaults to `success()`). `uses:` steps cannot run
 * offline: the caller says what each one outputs (setup-bun: nothing, Bun is already here; cache restore:
 * a hit, since this checkout's node_modules is installed).
 * Reference: https://docs.github.com/en/actions/reference/workflows-and-actions/metadata-syntax
 * ("runs for composite actions"), .../workflow-syntax#jobsjob_idstepsshell,
 * .../workflow-commands ("Setting an output parameter", "Multiline strings", "Adding a job summary").
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parse } from "yaml";
import { processOutput } from "../support/process-output.ts";

export interface ActionStep {
  id?: string;
  name?: string;
  if?: string;
  uses?: string;
  run?: string;
  shell?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
  "working-directory"?: string;
}

export interface ActionMetadata {
  inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  outputs: Record<string, { description: string; value: string }>;
  runs: { using: string; steps: ActionStep[] };
}

export function readAction(path: string): ActionMetadata {
  return parse(readFileSync(path, "utf8")) as ActionMetadata;
}

export interface StepRun {
  step: ActionStep;
  /** What the step wrote to its GITHUB_OUTPUT (empty for skipped steps). */
  outputs: Record<string, string>;
  conclusion: "success" | "failure" | "skipped";
  exitCode?: number;
  stdout: string;
  stderr: string;
}

export interface CompositeRun {
  /** The action's outputs, as a workflow reads them with `steps.<id>.outputs.<name>`. */
  outputs: Record<string, string>;
  /** Every step's `GITHUB_STEP_SUMMARY`, joined in order (the job summary). */
  summary: string;
  steps: StepRun[];
  /** True when a step failed (the action's step fails; `continue-on-error` is the caller's choice). */
  failed: boolean;
}

type Context = Record<string, unknown>;

function lookup(context: Context, path: string): string {
  let value: unknown = context;
  for (const key of path.split(".")) {
    if (value === null || typeof value !== "object") return "";
    value = (value as Record<string, unknown>)[key];
  }
  return value === undefined || value === null ? "" : String(value);
}

/** One expression: a context path, or a path compared with a string literal. */
export function evaluate(expression: string, context: Context): string | boolean {
  const text = expression.trim();
  const comparison = /^([\w.-]+)\s*(==|!=)\s*'([^']*)'$/.exec(text);
  if (comparison) {
    const [, path = "", operator, literal = ""] = comparison;
    // Expression string comparison ignores case (GitHub "Evaluate expressions": Operators).
    const equal = lookup(context, path).toLowerCase() === literal.toLowerCase();
    return operator === "==" ? equal : !equal;
  }
  if (/^[\w-]+(\.[\w-]+)+$/.test(text)) return lookup(context, text);
  throw new Error(`composite-runner: unsupported expression ${JSON.stringify(text)}`);
}

/** A string with every `${{ … }}` replaced by its value. */
export function interpolate(text: string, context: Context): string {
  return text.replace(/\$\{\{(.*?)\}\}/g, (_, expression: string) => String(evaluate(expression, context)));
}

/** Outputs of a `GITHUB_OUTPUT` file, read as the runner reads it. */
export function parseOutputFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    if (line === "") continue;
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const [, name = "", delimiter] = heredoc;
      const end = lines.indexOf(delimiter ?? "", i + 1);
      if (end === -1) throw new Error(`GITHUB_OUTPUT: no closing delimiter for ${name}`);
      out[name] = lines.slice(i + 1, end).join("\n");
      i = end;
      continue;
    }
    const eq = line.indexOf("=");
    if (eq <= 0) throw new Error(`GITHUB_OUTPUT: invalid line ${JSON.stringify(line)}`);
    out[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return out;
}

export interface RunOptions {
  /** The directory holding action.yml (`github.action_path`). */
  actionPath: string;
  /** The caller's `with:`. */
  with: Record<string, string>;
  /** `GITHUB_WORKSPACE`. */
  workspace: string;
  /** The job's environment (HOME, PATH, XDG directories...). */
  env: Record<string, string>;
  /** What each `uses:` step outputs, by the action's name before `@`. */
  uses: Record<string, Record<string, string>>;
}

async function runShell(
  script: string,
  cwd: string,
  env: Record<string, string>,
  temp: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const file = join(temp, `step-${crypto.randomUUID()}.sh`);
  writeFileSync(file, script);
  const proc = Bun.spawn(["bash", "--noprofile", "--norc", "-eo", "pipefail", file], {
    cwd,
    env,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  return processOutput(proc);
}

/** Runs the composite action at `options.actionPath` with the caller's inputs. */
export async function runCompositeAction(options: RunOptions): Promise<CompositeRun> {
  const action = readAction(join(options.actionPath, "action.yml"));
  if (action.runs.using !== "composite") throw new Error("composite-runner: not a composite action");
  const inputs: Record<string, string> = {};
  for (const [name, spec] of Object.entries(action.inputs)) {
    inputs[name] = options.with[name] ?? spec.default ?? "";
  }
  const temp = mkdtempSync(join(dirname(options.workspace), "runner-temp-"));
  const steps: Record<string, { outputs: Record<string, string> }> = {};
  const context: Context = {
    inputs,
    steps,
    github: { action_path: options.actionPath, workspace: options.workspace },
    runner: { os: "Linux", arch: "X64", temp },
  };
  const runs: StepRun[] = [];
  let summary = "";
  let failed = false;
  for (const step of action.runs.steps) {
    const condition = step.if === undefined ? true : evaluate(step.if.replace(/^\$\{\{|\}\}$/g, ""), context);
    if (failed || condition !== true) {
      runs.push({ step, conclusion: "skipped", outputs: {}, stdout: "", stderr: "" });
      continue;
    }
    if (step.uses !== undefined) {
      const name = step.uses.split("@")[0] ?? "";
      const outputs = options.uses[name];
      if (outputs === undefined) throw new Error(`composite-runner: no stand-in for ${step.uses}`);
      if (step.id) steps[step.id] = { outputs };
      runs.push({ step, conclusion: "success", outputs, stdout: "", stderr: "" });
      continue;
    }
    const outputFile = join(temp, `output-${runs.length}`);
    const summaryFile = join(temp, `summary-${runs.length}`);
    writeFileSync(outputFile, "");
    writeFileSync(summaryFile, "");
    const stepEnv: Record<string, string> = {
      ...options.env,
      GITHUB_ACTIONS: "true",
      CI: "true",
      GITHUB_WORKSPACE: options.workspace,
      GITHUB_ACTION_PATH: options.actionPath,
      GITHUB_OUTPUT: outputFile,
      GITHUB_STEP_SUMMARY: summaryFile,
      RUNNER_TEMP: temp,
      RUNNER_OS: "Linux",
    };
    for (const [name, value] of Object.entries(step.env ?? {}))
      stepEnv[name] = interpolate(String(value), context);
    const cwd = step["working-directory"]
      ? interpolate(step["working-directory"], context)
      : options.workspace;
    const result = await runShell(step.run ?? "", cwd, stepEnv, temp);
    const outputs = parseOutputFile(readFileSync(outputFile, "utf8"));
    if (step.id) steps[step.id] = { outputs };
    summary += readFileSync(summaryFile, "utf8");
    const conclusion = result.code === 0 ? "success" : "failure";
    if (conclusion === "failure") failed = true;
    runs.push({
      step,
      conclusion,
      outputs,
      exitCode: result.code,
      stdout: result.stdout,
      stderr: result.stderr,
    });
  }
  const outputs: Record<string, string> = {};
  for (const [name, spec] of Object.entries(action.outputs)) outputs[name] = interpolate(spec.value, context);
  return { outputs, summary, steps: runs, failed };
}
