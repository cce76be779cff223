/** `agent run "goal"`: the full agent with delegation, approvals and a transcript. Work lives in run-session.ts. */
import { type Command, Option } from "commander";
import { CliExit, type CommandModule } from "./commands.ts";
import { addSessionOptions } from "./session-options.ts";
import type { SessionFlags } from "./session-setup.ts";

/** Flags of `agent run`, as commander parses them. */
export interface RunFlags extends SessionFlags {
  schema?: string;
  output: "text" | "json" | "stream-json";
  onAsk?: "deny" | "fail" | "allow";
}

export const runCommand: CommandModule = {
  register(program: Command) {
    const command = program
      .command("run")
      .description("run an agent on a goal: it plans, delegates to sub-agents and acts in the workspace")
      .argument("[goal...]", "what the agent should achieve (with -c or --resume: what to continue with)");
    addSessionOptions(command)
      .option("--schema <file|json>", "the final answer must be JSON valid against this JSON schema")
      .addOption(
        new Option("--output <format>", "what stdout carries")
          .choices(["text", "json", "stream-json"])
          .default("text"),
      )
      .addOption(
        new Option(
          "--on-ask <decision>",
          "how to decide approvals without a terminal (default deny)",
        ).choices(["deny", "fail", "allow"]),
      )
      .action(async (goal: string[], flags: RunFlags) => {
        const { runSession } = await import("./run-session.ts");
        const code = await runSession(goal, flags);
        if (code !== 0) throw new CliExit(code);
      });
  },
};
