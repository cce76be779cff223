/** `agent models`: what each tier resolves to in this environment, and why. Work in models-run.ts. */
import type { Command } from "commander";
import type { CommandModule } from "../shared/command-module.ts";
import { commandIo } from "../shared/io/command-io.ts";
import type * as ModelsRun from "./models-run.ts";

export const modelsCommand: CommandModule<typeof ModelsRun> = {
  register(program: Command, load, io) {
    program
      .command("models")
      .description("show what each tier resolves to here and why (key variable names only, never values)")
      .option("--json", "print the report as JSON")
      .option(
        "--check",
        "ask each provider with a key which models it serves and flag tier defaults or configured models it no longer serves",
      )
      .option(
        "--refresh",
        "download the model catalog (models.dev api.json, or AGENT_MODELS_URL) into the cache; exit 4 if it fails",
      )
      .option("--all", "also list deprecated and shut-down models")
      .action(async (flags: { json?: boolean; check?: boolean; refresh?: boolean; all?: boolean }) => {
        const { runModels } = await load();
        await runModels(flags, commandIo(io));
      });
  },
};
