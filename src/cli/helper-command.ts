/**
 * `agent helper`: one model call, or with `--tools` the agent loop with exactly those primitives;
 * stdout holds only the answer. The work lives in helper-run.ts (`helperMain`).
 */
import { type Command, Option } from "commander";
import type { CommandModule } from "./commands.ts";
import { type SandboxFlags, sandboxOptions } from "./sandbox-flags.ts";

/** Flags of `agent helper`, as commander parses them. */
export interface HelperFlags extends SandboxFlags {
  tier: string;
  model?: string;
  system?: string;
  json?: boolean;
  tools?: string;
  maxTurns?: string;
  timeout?: string;
  maxBudgetUsd?: string;
  maxTokens?: string;
  schema?: string;
  verbose?: boolean;
  record?: string;
  replay?: string;
  /** False with `--no-fallback`. */
  fallback?: boolean;
}

export const helperCommand: CommandModule = {
  register(program: Command) {
    const command = program
      .command("helper")
      .description(
        "ask a model; stdout holds only the answer (piped stdin is added to the prompt). With --tools the model may use those primitives, never asking",
      )
      .argument("[prompt...]", "the prompt")
      .addOption(
        new Option("--tier <tier>", "model tier (auto: chosen from the task)")
          .choices(["fast", "good", "best", "smart", "auto"])
          .default("fast"),
      )
      .option("--model <model>", "a model: tier, provider:model or model id (overrides --tier)")
      .option("--system <text>", "system prompt")
      .option(
        "--tools <list>",
        "comma-separated primitives the model may use without asking (read_file, write_file, edit_file, apply_patch, exec, grep, glob, fetch)",
      )
      .option("--max-turns <n>", "most model turns with --tools (default 10)")
      .option("--timeout <seconds>", "wall-clock limit of the run")
      .option("--max-budget-usd <usd>", "cost budget of the run in US dollars (exit 5 when spent)")
      .option("--max-tokens <n>", "token budget of the run: input, output and cache tokens (exit 5)")
      .option("--schema <file|json>", "the answer must be JSON valid against this JSON schema")
      .option("--verbose", "print each tool call on stderr (default: only when stderr is a terminal)")
      .option("--json", "print {answer, model, provider, usage} as JSON")
      .option("--record <file>", "write every model exchange to a cassette")
      .option("--replay <file>", "serve model exchanges from a cassette (no key, no network)")
      .option("--no-fallback", "stay on the resolved model: no fallback, no escalation to the next tier");
    for (const option of sandboxOptions()) command.addOption(option);
    command.action(async (prompt: string[], flags: HelperFlags) => {
      const { helperMain } = await import("./helper-run.ts");
      await helperMain(prompt, flags);
    });
  },
};
