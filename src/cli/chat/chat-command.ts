/** `agent chat ["first message"]`: a conversation in the terminal. Work lives in chat-session.ts. */
import type { Command } from "commander";
import { ExitCode } from "../../kernel/index.ts";
import { type CommandModule, exitWith } from "../shared/command-module.ts";
import { addExamplesAndExitCodes } from "../shared/flags/help-text.ts";
import { addSessionOptions } from "../shared/flags/session-options.ts";
import type * as ChatSession from "./chat-session.ts";
import type { ChatFlags } from "./chat-session.ts";

export const chatCommand: CommandModule<typeof ChatSession> = {
  register(program: Command, load) {
    const command = program
      .command("chat")
      .description(
        "talk with the agent in the terminal: each message runs it on the same conversation (`agent` alone does this too)",
      )
      .argument("[message...]", "the first message (optional)");
    addSessionOptions(command)
      .option(
        "--plan",
        "plan mode until you approve a plan: read-only tools, each answer a plan to approve, edit or reject (docs/plan-mode.md)",
      )
      .action(async (words: string[], flags: ChatFlags) => {
        const { chatSession } = await load();
        exitWith(await chatSession(words, flags));
      });
    addExamplesAndExitCodes(
      command,
      [
        [
          'agent chat -m fast "what does this repository do?"',
          "start with a first message, on the fast tier",
        ],
        ["agent chat -c", "continue this workspace's latest conversation"],
        ["agent --plan", "a conversation in plan mode: nothing changes until you approve a plan"],
      ],
      [ExitCode.approvalNeeded],
    );
  },
};
