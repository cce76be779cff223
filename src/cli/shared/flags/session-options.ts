/** The options `agent run` and `agent chat` share (cheap to import: commander only). */
import { type Command, Option } from "commander";
import { ALIAS_LINES } from "../../../llm/catalog/tiers.ts";
import { type SandboxFlags, sandboxOptions } from "./sandbox-flags.ts";
import { type CassetteFlags, cassetteOptions } from "./shared-flags.ts";

const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

/** Declares the shared options on a command; their parsed shape is SessionFlags (below). */
export function addSessionOptions(command: Command): Command {
  command
    .option("--agent <name>", "the agent spec to run (default: root, or defaults.agent in config)")
    .addOption(
      new Option(
        "--tier <tier>",
        "model tier of the top agent (auto: chosen from the goal or message)",
      ).choices(["fast", "good", "best", "smart", "auto"]),
    )
    .option(
      "-m, --model <model>",
      `model for the top agent: tier (fast|good|best|smart|auto), alias (${Object.keys(ALIAS_LINES).join(", ")}), provider:model or id (overrides --tier)`,
    )
    .option("--max-turns <n>", "most model turns of the top agent (per message in a chat)")
    .option("--timeout <seconds>", "wall-clock limit of each run of the top agent")
    .option("--max-budget-usd <usd>", "cost budget of each run in US dollars (exit 5 when spent)")
    .option("--max-tokens <n>", "token budget of each run: input, output and cache tokens (exit 5)")
    // No default value: commander would print `(default: [])`; session-setup.ts reads a missing list as none.
    .option("--allow <rule>", "allow rule TOOL or TOOL:PATTERN (repeatable)", collect)
    .option("--deny <rule>", "deny rule TOOL or TOOL:PATTERN (repeatable)", collect)
    .option("-c, --continue", "continue the most recent session of this workspace")
    .option(
      "--resume <id>",
      "continue the session with this id (or its short form); it must belong to the workspace",
    )
    .option("--cwd <dir>", "the workspace (default: the current directory)")
    .option(
      "-w, --worktree [name]",
      "work in a new git worktree on branch agent/NAME (NAME generated when absent; an existing one is entered): docs/worktrees.md",
    )
    .option("--no-fallback", "stay on the resolved model: never switch to the tier's next candidate");
  for (const option of cassetteOptions()) command.addOption(option);
  for (const option of sandboxOptions()) command.addOption(option);
  return command;
}

/** The flags `agent run` and `agent chat` share, as commander parses them. */
export interface SessionFlags extends SandboxFlags, CassetteFlags {
  agent?: string;
  /** `--tier`: fast, good, best or auto; `--model` overrides it. */
  tier?: string;
  model?: string;
  maxTurns?: string;
  timeout?: string;
  maxBudgetUsd?: string;
  maxTokens?: string;
  allow?: string[];
  deny?: string[];
  resume?: string;
  /** `-c/--continue`: the latest session of this workspace. */
  continue?: boolean;
  cwd?: string;
  /** `--worktree [NAME]`: true without a name. */
  worktree?: string | true;
  /** False with `--no-fallback`. */
  fallback: boolean;
}
