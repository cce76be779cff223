import type { Command } from "commander";
import type { RunIo } from "./io/command-io.ts";

/** The types every command module shares, in a leaf that imports no command (commands.ts, the command
 * table, imports every command; only program.ts imports commands.ts). */

/**
 * A command module: declares its name, options and actions on the program. Its actions reach the
 * command's implementation through `load`, which the command table (commands.ts) supplies: the table,
 * not the command, decides what is imported and when. `io` is where the command runs (the process's
 * streams, or a caller's in the same process).
 */
export interface CommandModule<Implementation> {
  register(program: Command, load: () => Promise<Implementation>, io: RunIo): void;
}

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

/** Ends an action with the run's exit code when it is not 0 (its messages are already on stderr). */
export function exitWith(code: number): void {
  if (code !== 0) throw new CliExit(code);
}
