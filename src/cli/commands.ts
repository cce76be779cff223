/**
 * The command registry. Each command lives in its own module, cheap to import: it declares its
 * options and lazily imports its implementation inside the action. Adding a command is one line here.
 */
import type { Command } from "commander";
import { agentsCommand } from "./agents/agents-command.ts";
import { chatCommand } from "./chat/chat-command.ts";
import { helperCommand } from "./helper/helper-command.ts";
import { mcpCommand } from "./mcp/mcp-command.ts";
import { modelsCommand } from "./models/models-command.ts";
import { runCommand } from "./run/run-command.ts";
import { sessionsCommand } from "./sessions/sessions-command.ts";

/** A command module: registers itself (name, options, action) on the program. */
export interface CommandModule {
  register(program: Command): void;
}

/** Every command, in help order. */
export const COMMANDS: readonly CommandModule[] = [
  runCommand,
  chatCommand,
  helperCommand,
  agentsCommand,
  modelsCommand,
  mcpCommand,
  sessionsCommand,
];

/**
 * Thrown by an action to end the process with a specific exit code (message, if any, goes to stderr).
 * `reported` says the command already printed its result (in JSON mode, the one JSON object).
 */
export class CliExit extends Error {
  constructor(
    readonly code: number,
    message = "",
    readonly reported = false,
  ) {
    super(message);
    this.name = "CliExit";
  }
}
