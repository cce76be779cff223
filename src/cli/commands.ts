/**
 * The command registry. Each command lives in its own module, cheap to import: it declares its
 * options and lazily imports its implementation inside the action. Adding a command is one line here.
 */
import type { Command } from "commander";
import { agentsCommand } from "./agents-command.ts";
import { chatCommand } from "./chat-command.ts";
import { helperCommand } from "./helper-command.ts";
import { mcpCommand } from "./mcp-command.ts";
import { modelsCommand } from "./models-command.ts";
import { runCommand } from "./run-command.ts";
import { sessionsCommand } from "./sessions-command.ts";

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
