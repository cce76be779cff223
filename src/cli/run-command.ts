/** `agent run "goal"`: the full agent with delegation, approvals and a transcript. Work lives in run-session.ts. */
import { type Command, Option } from "commander";
import { CliExit, type CommandModule } from "./commands.ts";
import { type SandboxFlags, sandboxOptions } from "./sandbox-flags.ts";
import { type CassetteFlags, cassetteOptions, type OutputFormat, outputOption } from "./shared-flags.ts";
import type { SystemFlags } from "./system-flag.ts";

/** Flags of `agent run`, as commander parses them. */
export interface RunFlags extends SystemFlags, CassetteFlags, SandboxFlags {
  agent?: string;
  /** `--tier`: fast, good, best or auto; `--model` overrides it. */
  tier?: string;
  model?: string;
  maxTurns?: string;
  timeout?: string;
  maxBudgetUsd?: string;
  maxTokens?: string;
  schema?: string;
  output: OutputFormat;
  onAsk?: "deny" | "fail" | "allow";
  allow: string[];
  deny: string[];
  resume?: string;
  cwd?: string;
  /** False with `--no-fallback`. */
  fallback: boolean;
}

const collect = (value: string, previous: string[]) => [...previous, value];

export const runCommand: CommandModule = {
  register(program: Command) {
    const command = program
      .command("run")
      .description("run an agent on a goal: it plans, delegates to sub-agents and acts in the workspace")
      .argument(
        "[goal...]",
        "what the agent should achieve (with --resume: what to continue with); piped stdin is added, or is the goal when none is given (or -)",
      )
      .option("--agent <name>", "the agent spec to run (default: root, or defaults.agent in config)")
      .addOption(
        new Option("--tier <tier>", "model tier of the top agent (auto: chosen from the goal)").choices([
          "fast",
          "good",
          "best",
          "auto",
        ]),
      )
      .option(
        "-m, --model <model>",
        "model for the top agent: tier (fast|good|best|auto), provider:model or id (overrides --tier)",
      )
      .option("-s, --system <text>", "replace the top agent's system prompt (@FILE reads a file)")
      .option("--append-system <text>", "add to the top agent's system prompt (@FILE reads a file)")
      .option("--max-turns <n>", "most model turns of the top agent")
      .option("--timeout <seconds>", "wall-clock limit of the whole run")
      .option("--max-budget-usd <usd>", "cost budget of the whole run in US dollars (exit 5 when spent)")
      .option("--max-tokens <n>", "token budget of the whole run: input, output and cache tokens (exit 5)")
      .option("--schema <file|json>", "the final answer must be JSON valid against this JSON schema")
      .addOption(outputOption(["text", "json", "stream-json"]))
      .addOption(
        new Option(
          "--on-ask <decision>",
          "how to decide approvals without a terminal (default deny)",
        ).choices(["deny", "fail", "allow"]),
      )
      .option("--allow <rule>", "allow rule TOOL or TOOL:PATTERN (repeatable)", collect, [])
      .option("--deny <rule>", "deny rule TOOL or TOOL:PATTERN (repeatable)", collect, [])
      .option("--resume <id>", "continue the session with this id")
      .option("--cwd <dir>", "the workspace (default: the current directory)");
    for (const option of cassetteOptions()) command.addOption(option);
    for (const option of sandboxOptions()) command.addOption(option);
    command
      .option("--no-fallback", "stay on the resolved model: never switch to the tier's next candidate")
      .action(async (goal: string[], flags: RunFlags) => {
        const { runSession } = await import("./run-session.ts");
        const code = await runSession(goal, flags);
        // The renderer has printed the result (the JSON object in JSON mode).
        if (code !== 0) throw new CliExit(code, "", true);
      });
  },
};
