/** `agent agents list|show NAME|validate`: the agent specs found from here. Work lives in agents-run.ts. */
import type { Command } from "commander";
import { type CommandModule, exitWith } from "../shared/command-module.ts";
import { commandIo } from "../shared/io/command-io.ts";
import type * as AgentsRun from "./agents-run.ts";

export const agentsCommand: CommandModule<typeof AgentsRun> = {
  register(program: Command, load, io) {
    const agents = program
      .command("agents")
      .description("the agent specs found from here: project .agent/agents, user config, bootstrap");
    agents
      .command("list", { isDefault: true })
      .description(
        "(default) list every agent: name, model, capabilities, scope and source file (exit 3 if any is invalid)",
      )
      .option("--json", "print the agents and the spec errors as JSON")
      .action(async (flags: { json?: boolean }) => {
        const { listAgents } = await load();
        exitWith(await listAgents(flags, commandIo(io)));
      });
    agents
      .command("show")
      .description("print one agent's spec, system prompt included")
      .argument("<name>", "the agent's name")
      .option("--json", "print the spec as JSON")
      .action(async (name: string, flags: { json?: boolean }) => {
        const { showAgent } = await load();
        exitWith(await showAgent(name, flags, commandIo(io)));
      });
    agents
      .command("validate")
      .description("check every spec; each error as FILE:LINE: FIELD: expected ... (exit 3 if any)")
      .action(async () => {
        const { validateAgents } = await load();
        exitWith(await validateAgents(commandIo(io)));
      });
  },
};
