/** `agent helper`: one model call; stdout holds only the answer. The work lives in helper-run.ts. */
import { type Command, Option } from "commander";
import type { CommandModule } from "./commands.ts";

/** Flags of `agent helper`, as commander parses them. */
export interface HelperFlags {
  tier: string;
  model?: string;
  system?: string;
  json?: boolean;
  record?: string;
  replay?: string;
}

export const helperCommand: CommandModule = {
  register(program: Command) {
    program
      .command("helper")
      .description(
        "ask a model one question; stdout holds only the answer (piped stdin is added to the prompt)",
      )
      .argument("[prompt...]", "the prompt")
      .addOption(
        new Option("--tier <tier>", "model tier")
          .choices(["fast", "good", "best", "smart", "auto"])
          .default("fast"),
      )
      .option("--model <model>", "a model: tier, provider:model or model id (overrides --tier)")
      .option("--system <text>", "system prompt")
      .option("--json", "print {answer, model, provider, usage} as JSON")
      .option("--record <file>", "write every model exchange to a cassette")
      .option("--replay <file>", "serve model exchanges from a cassette (no key, no network)")
      .action(async (prompt: string[], flags: HelperFlags) => {
        const { runHelper } = await import("./helper-run.ts");
        await runHelper(prompt, flags);
      });
  },
};
