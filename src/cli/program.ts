/**
 * The commander program and the central error handling: an AppError ends the process with its
 * documented exit code and a one-line message on stderr (never a stack trace); a usage error exits 2;
 * anything unexpected prints its message and exits 70, never 1, which means the agent failed
 * (set AGENT_DEBUG=1 to see the stack).
 */
import { Command, CommanderError } from "commander";
import pkg from "../../package.json" with { type: "json" };
import { AppError, ExitCode, exitCodeForAppError, terminalSafe } from "../kernel/index.ts";
import { CliExit, COMMANDS } from "./commands.ts";

/** Builds the program with every registered command. */
export function createProgram(): Command {
  const program = new Command("agent")
    .description("Run LLM agent tasks from a terminal, shell scripts and CI jobs")
    .version(pkg.version, "-V, --version")
    .exitOverride()
    .showSuggestionAfterError(true)
    .configureOutput({
      writeOut: (text) => process.stdout.write(text),
      writeErr: (text) => process.stderr.write(text),
    });
  for (const command of COMMANDS) command.register(program);
  return program;
}

/** A message as one terminal-safe line (messages can quote model or tool text). */
function oneLine(text: string): string {
  return terminalSafe(text)
    .replace(/\s*\n\s*/g, " ")
    .trim();
}

/** Maps a thrown value to an exit code, writing its one-line message to stderr. */
export function handleError(
  error: unknown,
  env: Record<string, string | undefined> = process.env,
  stderr: { write(text: string): unknown } = process.stderr,
): number {
  if (error instanceof CommanderError) {
    // commander has already written its message (or the help text).
    if (error.code === "commander.helpDisplayed" || error.code === "commander.version") return ExitCode.done;
    if (error.code === "commander.help") return error.exitCode === 0 ? ExitCode.done : ExitCode.usage;
    return ExitCode.usage;
  }
  if (error instanceof CliExit) {
    if (error.message) stderr.write(`agent: ${oneLine(error.message)}\n`);
    return error.code;
  }
  if (error instanceof AppError) {
    stderr.write(`agent: ${oneLine(error.message)}\n`);
    return exitCodeForAppError(error.kind);
  }
  const message = error instanceof Error ? error.message : String(error);
  stderr.write(`agent: internal error: ${oneLine(message)}\n`);
  if (env.AGENT_DEBUG && error instanceof Error && error.stack) stderr.write(`${error.stack}\n`);
  return ExitCode.internal;
}

/**
 * The arguments to parse: `agent` alone on a terminal (stdin and stdout) is `agent chat`; elsewhere it
 * prints the help, as before.
 */
export function effectiveArgs(args: string[], terminal: boolean): string[] {
  return args.length === 0 && terminal ? ["chat"] : args;
}

/** Runs the CLI with user arguments (no `node script` prefix); resolves to the exit code. */
export async function runCli(args: string[]): Promise<number> {
  try {
    const terminal = process.stdin.isTTY === true && process.stdout.isTTY === true;
    await createProgram().parseAsync(effectiveArgs(args, terminal), { from: "user" });
    return ExitCode.done;
  } catch (error) {
    return handleError(error);
  }
}
