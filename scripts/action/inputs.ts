/**
 * The action's inputs as the run step receives them. A composite action's inputs are not exported as
 * `INPUT_*` variables by the runner (actions/runner#665; GitHub's metadata-syntax docs say so for
 * composite actions), so action.yml maps each one to an `INPUT_<NAME>` variable in the step's `env:`,
 * upper-cased with `-` as `_` (`max-turns` is `INPUT_MAX_TURNS`), a name any shell can hold. The values reach
 * this script only through the environment: no input is ever part of shell text.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";

type Env = Record<string, string | undefined>;

/** Provider inputs and the variable each one sets for the `agent` process only (docs/providers-and-models.md). */
export const PROVIDER_INPUTS = {
  "anthropic-api-key": "ANTHROPIC_API_KEY",
  "openai-api-key": "OPENAI_API_KEY",
  "gemini-api-key": "GEMINI_API_KEY",
  "anthropic-base-url": "ANTHROPIC_BASE_URL",
  "openai-base-url": "OPENAI_BASE_URL",
  "gemini-base-url": "GOOGLE_GEMINI_BASE_URL",
} as const;

/** The key inputs, whose values are masked in the log. */
export const SECRET_INPUTS = ["anthropic-api-key", "openai-api-key", "gemini-api-key"] as const;

/** The inputs, read and checked. */
export interface ActionInputs {
  /** The goal; from `prompt`, or the text of `prompt-file`. */
  goal: string;
  agent?: string;
  model?: string;
  allow: string[];
  deny: string[];
  sandbox?: string;
  /** Model tier of the top agent (`--tier`). */
  tier?: string;
  maxBudgetUsd?: string;
  maxTurns?: string;
  /** Wall-clock limit of the run in seconds (`--timeout`). */
  timeout?: string;
  /** Token budget of the run (`--max-tokens`). */
  maxTokens?: string;
  /** A JSON schema the answer must match: inline JSON, or the absolute path of a schema file. */
  schema?: string;
  /** Refuse to run (exit 3) when the bubblewrap sandbox is unavailable (`--sandbox-required`). */
  sandboxRequired: boolean;
  onAsk?: string;
  /** Absolute path the JSON result is written to, when asked. */
  outputFile?: string;
  /** Absolute path of the workspace the agent runs in. */
  workingDirectory: string;
  /** Provider variables to set for the agent process (only those given). */
  providerEnv: Record<string, string>;
  /** Key values to mask in the log. */
  secrets: string[];
}

/** A problem with the inputs: the message names the input and what was expected (exit 2, usage). */
export class InputError extends Error {
  override name = "InputError";
}

/** The variable action.yml maps input `name` to: `max-turns` → `INPUT_MAX_TURNS`. */
export function inputVariable(name: string): string {
  return `INPUT_${name.toUpperCase().replaceAll("-", "_")}`;
}

/** The value of input `name` (trimmed; undefined when empty or unset). */
export function input(env: Env, name: string): string | undefined {
  const value = env[inputVariable(name)]?.trim();
  return value ? value : undefined;
}

/** A multi-line input: one entry per non-blank line, trimmed ("allow", "deny"). */
export function lines(env: Env, name: string): string[] {
  return (env[inputVariable(name)] ?? "")
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "");
}

/** `path` against the workspace (`GITHUB_WORKSPACE`, else the current directory). */
function inWorkspace(env: Env, path: string): string {
  return isAbsolute(path) ? path : resolve(env.GITHUB_WORKSPACE || process.cwd(), path);
}

function readGoal(env: Env): string {
  const prompt = env[inputVariable("prompt")] ?? "";
  const promptFile = input(env, "prompt-file");
  if (prompt.trim() !== "" && promptFile !== undefined) {
    throw new InputError("inputs prompt and prompt-file were both given: set exactly one");
  }
  if (promptFile !== undefined) {
    const path = inWorkspace(env, promptFile);
    if (!existsSync(path) || !statSync(path).isFile()) {
      throw new InputError(`input prompt-file: ${path} is not a readable file`);
    }
    const text = readFileSync(path, "utf8");
    if (text.trim() === "") throw new InputError(`input prompt-file: ${path} is empty`);
    return text;
  }
  if (prompt.trim() === "")
    throw new InputError("input prompt (or prompt-file) is required: the goal of the run");
  return prompt;
}

/** A boolean input: `true` or `false` (GitHub's own spelling for boolean inputs); unset is false. */
function flagInput(env: Env, name: string): boolean {
  const value = input(env, name);
  if (value === undefined || value === "false") return false;
  if (value === "true") return true;
  throw new InputError(`input ${name}: expected true or false, got ${JSON.stringify(value)}`);
}

/**
 * The `schema` input: inline JSON (starting with `{`, as `--schema` takes it) as it is, else a file
 * relative to the workspace, which must exist.
 */
function readSchema(env: Env): string | undefined {
  const schema = input(env, "schema");
  if (schema === undefined || schema.startsWith("{")) return schema;
  const path = inWorkspace(env, schema);
  if (!existsSync(path) || !statSync(path).isFile()) {
    throw new InputError(
      `input schema: ${path} is not a readable file (give a file or inline JSON starting with {)`,
    );
  }
  return path;
}

/** Reads and checks every input; throws InputError naming the input that is wrong. */
export function readInputs(env: Env): ActionInputs {
  const goal = readGoal(env);
  const workingDirectory = inWorkspace(env, input(env, "working-directory") ?? ".");
  if (!existsSync(workingDirectory) || !statSync(workingDirectory).isDirectory()) {
    throw new InputError(`input working-directory: ${workingDirectory} is not a directory`);
  }
  const outputFile = input(env, "output-file");
  const providerEnv: Record<string, string> = {};
  for (const [name, variable] of Object.entries(PROVIDER_INPUTS)) {
    const value = input(env, name);
    if (value !== undefined) providerEnv[variable] = value;
  }
  const secrets = SECRET_INPUTS.map((name) => input(env, name)).filter((v): v is string => v !== undefined);
  return {
    goal,
    agent: input(env, "agent"),
    model: input(env, "model"),
    allow: lines(env, "allow"),
    deny: lines(env, "deny"),
    sandbox: input(env, "sandbox"),
    sandboxRequired: flagInput(env, "sandbox-required"),
    tier: input(env, "tier"),
    maxBudgetUsd: input(env, "max-budget-usd"),
    maxTurns: input(env, "max-turns"),
    timeout: input(env, "timeout"),
    maxTokens: input(env, "max-tokens"),
    schema: readSchema(env),
    onAsk: input(env, "on-ask"),
    outputFile: outputFile === undefined ? undefined : inWorkspace(env, outputFile),
    workingDirectory,
    providerEnv,
    secrets,
  };
}
