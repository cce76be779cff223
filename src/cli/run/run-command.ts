/** `agent run "goal"`: the full agent with delegation, approvals and a transcript. Work lives in run-session.ts. */
import { type Command, Option } from "commander";
import { CliExit, type CommandModule } from "../shared/command-module.ts";
import { addExamplesAndExitCodes } from "../shared/flags/help-text.ts";
import { addSessionOptions } from "../shared/flags/session-options.ts";
import { outputOption } from "../shared/flags/shared-flags.ts";
import type { RunFlags } from "./run-flag-types.ts";
import type * as RunSession from "./run-session.ts";

export const runCommand: CommandModule<typeof RunSession> = {
  register(program: Command, load, io) {
    const command = program
      .command("run")
      .description("run an agent on a goal: it plans, delegates to sub-agents and acts in the workspace")
      .argument(
        "[goal...]",
        "what the agent should achieve (with -c or --resume: what to continue with); piped stdin is added, or is the goal when none is given (or -)",
      );
    addSessionOptions(command)
      .option("-s, --system <text>", "replace the top agent's system prompt (@FILE reads a file)")
      .option("--append-system <text>", "add to the top agent's system prompt (@FILE reads a file)")
      .option("--schema <file|json>", "the final answer must be JSON valid against this JSON schema")
      .option(
        "--plan",
        "plan mode: read-only tools, the answer is a plan; on a terminal, approve it to carry it out",
      )
      .addOption(outputOption(["text", "json", "stream-json"]))
      .option(
        "--no-session-persistence",
        "keep no transcript: the run leaves nothing in the state folder and cannot be continued",
      )
      .addOption(
        new Option(
          "--on-ask <decision>",
          "how to decide approvals without a terminal (default deny)",
        ).choices(["deny", "fail", "allow"]),
      )
      // `agent -p` adds it (program.ts): the run behaves as without a terminal, so nothing prompts.
      .addOption(new Option("--print-mode").hideHelp())
      .action(async (goal: string[], flags: RunFlags) => {
        const { runSession } = await load();
        const code = await runSession(goal, flags, io);
        // The renderer has printed the result (the JSON object in JSON mode).
        if (code !== 0) throw new CliExit(code, "", true);
      });
    addExamplesAndExitCodes(command, [
      [
        'agent run "add a farewell(name) function to greet.js"',
        "plan, delegate and act here; asks before writes and commands on a terminal",
      ],
      [
        "agent run \"fix the failing test\" --allow 'edit_file:src/**' --allow 'exec:npm test' -o json",
        "in CI: those edits and that command run, anything else is denied (listed in denials)",
      ],
      ["agent run --resume ab12cd", "continue a session where it left off (the id ends every run)"],
    ]);
  },
};
