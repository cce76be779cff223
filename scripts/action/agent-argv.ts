/**
 * The `agent run` command line for the action's inputs: an array handed to the process directly (never a
 * shell string), each input value inside its own `--flag=value` element, so `$(…)`, quotes or `;` in an
 * input are plain characters. The goal goes on stdin (`-` says stdin is the goal, docs/run.md), so a goal
 * that starts with `-` is never read as a flag and its size is bounded by stdin's limit, not argv's.
 */
import type { ActionInputs } from "./inputs.ts";

/** `agent run` arguments after `run` (the goal itself is written to stdin). */
export function agentRunArgs(inputs: ActionInputs): string[] {
  const args = ["--output=json", `--cwd=${inputs.workingDirectory}`];
  // `--flag=value` keeps each value in its flag's own element, even one that starts with `-`.
  const flag = (name: string, value: string | undefined) => {
    if (value !== undefined) args.push(`--${name}=${value}`);
  };
  flag("agent", inputs.agent);
  flag("tier", inputs.tier);
  flag("model", inputs.model);
  flag("sandbox", inputs.sandbox);
  if (inputs.sandboxRequired) args.push("--sandbox-required");
  flag("max-budget-usd", inputs.maxBudgetUsd);
  flag("max-turns", inputs.maxTurns);
  flag("max-tokens", inputs.maxTokens);
  flag("timeout", inputs.timeout);
  flag("schema", inputs.schema);
  flag("on-ask", inputs.onAsk);
  for (const rule of inputs.allow) flag("allow", rule);
  for (const rule of inputs.deny) flag("deny", rule);
  args.push("-");
  return args;
}
