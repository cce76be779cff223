/**
 * `agent helper`: one model call, or with `--tools` the agent loop with exactly those primitives;
 * stdout holds only the answer. The work lives in helper-run.ts (`helperMain`).
 */
import { type Command, Option } from "commander";
import { ExitCode } from "../../kernel/index.ts";
import { ALIAS_LINES } from "../../llm/catalog/tiers.ts";
import type { CommandModule } from "../shared/command-module.ts";
import { addExamplesAndExitCodes } from "../shared/flags/help-text.ts";
import { sandboxOptions } from "../shared/flags/sandbox-flags.ts";
import { cassetteOptions, outputOption } from "../shared/flags/shared-flags.ts";
import type { HelperFlags } from "./helper-flag-types.ts";
import type * as HelperRun from "./helper-run.ts";

export const helperCommand: CommandModule<typeof HelperRun> = {
  register(program: Command, load) {
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
      .option(
        "-m, --model <model>",
        // The alias names (aliasNames() in src/llm/resolve.ts), read from the small tiers module so that
        // registering the command loads no catalog.
        `a model: tier (fast|good|best|smart|auto), alias (${Object.keys(ALIAS_LINES).join(", ")}), provider:model or model id (overrides --tier)`,
      )
      .option("-s, --system <text>", "replace the built-in system prompt (@FILE reads a file)")
      .option("--append-system <text>", "add to the built-in system prompt (@FILE reads a file)")
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
      .addOption(outputOption(["text", "json"]))
      .option("--json", "same as -o json: one JSON result object on stdout, on every exit");
    for (const option of cassetteOptions()) command.addOption(option);
    for (const option of sandboxOptions()) command.addOption(option);
    command
      .option("--no-fallback", "stay on the resolved model: no fallback, no escalation to the next tier")
      .action(async (prompt: string[], flags: HelperFlags) => {
        const { helperMain } = await load();
        await helperMain(prompt, flags);
      });
    addExamplesAndExitCodes(
      command,
      [
        [
          'git diff | agent helper "write a one-line commit message"',
          "one model call; stdout holds only the answer",
        ],
        [
          'agent helper --tools read_file,grep "which file defines parseConfig?"',
          "the model may use exactly those tools, never asking; any other is refused",
        ],
        [
          'agent helper --json --schema \'{"type":"object","properties":{"ok":{"type":"boolean"}}}\' "is 7 prime?"',
          "one JSON result object, its answer valid against the schema",
        ],
      ],
      [ExitCode.approvalNeeded],
    );
  },
};
