/**
 * The commander program and the central error handling: an AppError ends the process with its
 * documented exit code and a one-line message on stderr (never a stack trace); a usage error exits 2;
 * anything unexpected prints its message and exits 70, never 1, which means the agent failed
 * (set AGENT_DEBUG=1 to see the stack).
 */
import { Command, CommanderError } from "commander";
import pkg from "../../package.json" with { type: "json" };
import { AppError, ExitCode, exitCodeForAppError, terminalSafe } from "../kernel/index.ts";
import { nearestName } from "../kernel/text/nearest-name.ts";
import { shellWord } from "../policy/shell-quote.ts";
import { errorRecord } from "../ui/json-shape.ts";
import { COMMANDS } from "./commands.ts";
import { CliExit } from "./shared/command-module.ts";
import { acceptOutputJson, jsonRequested } from "./shared/flags/shared-flags.ts";
import { processRunIo, type RunIo } from "./shared/io/command-io.ts";
import { stderr } from "./shared/io/std-streams.ts";
import { stdoutPipe } from "./shared/io/stdout-pipe.ts";
import { subcommandHint } from "./shared/subcommand-hint.ts";

/** The top-level command names: every module in COMMANDS and the built-in `version`. */
export const COMMAND_NAMES: readonly string[] = [...COMMANDS.map((entry) => entry.name), "version"];

/**
 * Builds the program with the given commands (every command when `only` is not given). A run that
 * names its command registers that one alone: importing and declaring the others is most of a
 * one-shot's command-line cost, and commander parses `agent helper ...` the same either way.
 */
export async function createProgram(only?: string, io: RunIo = processRunIo()): Promise<Command> {
  const program = new Command("agent")
    .description("Run LLM agent tasks from a terminal, shell scripts and CI jobs")
    .version(pkg.version, "-V, --version")
    .usage('[command] [options]   (agent "goal" and agent -p "goal" are agent run "goal")')
    .option("-p, --print <goal...>", 'run the goal once and print the answer: the same as `agent run "goal"`')
    .exitOverride()
    // A command's options belong to it: `agent eval merge a.json -o json` is merge's -o, not eval's.
    .enablePositionalOptions()
    .showSuggestionAfterError(true)
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    });
  const entries = COMMANDS.filter((entry) => only === undefined || entry.name === only);
  const modules = await Promise.all(entries.map((entry) => entry.load()));
  for (const command of modules) command.register(program, io);
  if (only === undefined || only === "version")
    program
      .command("version")
      .description("print the version")
      .action(() => {
        io.stdout.write(`${pkg.version}\n`);
      });
  acceptOutputJson(program);
  return program;
}

/** The hidden `agent run` flag `-p` becomes (run-command.ts). */
const PRINT_MODE = "--print-mode";

/**
 * Shorthands people type, rewritten before commander parses: `agent -p "goal" ...` and
 * `agent "fix the tests" ...` (a first word that is no command and contains a space) are
 * `agent run "goal" ...` (`-p` with `--print-mode`: no approval prompt, no terminal UI). Anything else is left alone, so a misspelt command still gets commander's
 * "unknown command" with its suggestion.
 */
export function expandShorthands(args: readonly string[], commandNames: readonly string[]): string[] {
  const [first, ...rest] = args;
  if (first === undefined) return [];
  // `-p` never prompts (as `claude -p`): `--print-mode` makes the run behave as without a terminal.
  if (first === "-p" || first === "--print") return ["run", PRINT_MODE, ...rest];
  if (first.startsWith("--print=")) return ["run", PRINT_MODE, first.slice("--print=".length), ...rest];
  if (!first.startsWith("-") && /\s/.test(first.trim()) && !commandNames.includes(first))
    return ["run", ...args];
  // Options before any command (`agent -c`, `agent -m opus`, `agent --resume ID "go on"`) are the chat's,
  // as `claude -c` opens the interactive session (https://code.claude.com/docs/en/cli-reference); with -p
  // among them it is the print run (`claude -c -p "query"`). Help and version stay the program's own.
  // A misspelt `--version` (`--versoin`) stays the program's, whose error suggests `--version`.
  if (first.startsWith("--") && nearestName(first, ["--version"]) !== undefined) return [...args];
  if (first.startsWith("-") && !PROGRAM_OPTIONS.has(first)) {
    const print = args.findIndex((arg) => arg === "-p" || arg === "--print");
    if (print === -1) return ["chat", ...args];
    return ["run", PRINT_MODE, ...args.slice(0, print), ...args.slice(print + 1)];
  }
  return [...args];
}

/**
 * What follows commander's "unknown command 'hi'" when the word is no near miss of a command (commander
 * suggests those): the words were probably a goal, which `agent run` takes, quoted when it has spaces.
 */
export function goalHint(args: readonly string[], commandNames: readonly string[]): string {
  const [first] = args;
  if (first === undefined || nearestName(first, commandNames) !== undefined) return "";
  const goal = args.filter((arg) => !arg.startsWith("-")).join(" ");
  // Double quotes read best and keep the text as it is unless it holds what bash expands there.
  const quoted = /["$`\\!]/.test(goal) ? shellWord(goal, { quote: "always" }) : `"${goal}"`;
  return `to run it as a goal: agent run ${quoted} (agent "several words" works too; agent --help lists the commands)\n`;
}

/** The program's own options, which never mean the chat. */
const PROGRAM_OPTIONS = new Set(["-h", "--help", "-V", "--version"]);

/** A message as one terminal-safe line (messages can quote model or tool text). */
function oneLine(text: string): string {
  return terminalSafe(text)
    .replace(/\s*\n\s*/g, " ")
    .trim();
}

/** Where handleError writes: stderr always gets the line; stdout gets the JSON object in JSON mode. */
export interface ErrorOutput {
  stderr: { write(text: string): unknown };
  /** Set in JSON mode (`-o json`, `-o stream-json`, `--json`). */
  json?: { write(text: string): unknown };
}

/**
 * Maps a thrown value to an exit code, writing its one-line message to stderr and, in JSON mode, the
 * error object to stdout (unless the command already printed its result).
 */
export function handleError(
  error: unknown,
  env: Record<string, string | undefined> = process.env,
  output: ErrorOutput = { stderr },
): number {
  const { stderr } = output;
  const report = (kind: string, message: string, code: number): number => {
    output.json?.write(`${JSON.stringify(errorRecord(kind, oneLine(message), code))}\n`);
    return code;
  };
  if (error instanceof CommanderError) {
    // commander has already written its message (or the help text).
    if (error.code === "commander.helpDisplayed" || error.code === "commander.version") return ExitCode.done;
    if (error.code === "commander.help" && error.exitCode === 0) return ExitCode.done;
    return report("usage", error.message.replace(/^error: /, ""), ExitCode.usage);
  }
  if (error instanceof CliExit) {
    if (error.message) stderr.write(`agent: ${oneLine(error.message)}\n`);
    if (error.reported || error.code === ExitCode.done) return error.code;
    return report(error.code === ExitCode.usage ? "usage" : "error", error.message || "failed", error.code);
  }
  if (error instanceof AppError) {
    // Several problems (spec files, config): one line each, in the order given (file order), each made
    // one terminal-safe line of its own so no file can print a line that looks like ours.
    const lines = error.details.lines;
    if (error.details.shown === true) {
      // The run's own error line said it already (a replay that did not fit): printed once.
    } else if (lines !== undefined && lines.length > 1) {
      stderr.write(`agent: ${lines.length} problems:\n`);
      for (const line of lines) stderr.write(`  ${oneLine(line)}\n`);
    } else if (output.json !== undefined && "hint" in error && typeof error.hint === "string") {
      // JSON modes (first-run.ts): one line that says what to set; a script's log needs no screen.
      stderr.write(`agent: ${oneLine(error.message)}; ${oneLine(error.hint)}\n`);
    } else stderr.write(`agent: ${oneLine(error.message)}\n`);
    // A screen of help after the line (first-run.ts), in text mode: stderr only; the JSON error keeps the one line.
    if (output.json === undefined && "screen" in error && typeof error.screen === "string")
      stderr.write(`${error.screen}\n`);
    return report(error.kind, error.message, exitCodeForAppError(error.kind));
  }
  const message = error instanceof Error ? error.message : String(error);
  stderr.write(`agent: internal error: ${oneLine(message)}\n`);
  if (env.AGENT_DEBUG && error instanceof Error && error.stack) stderr.write(`${error.stack}\n`);
  return report("internal", message, ExitCode.internal);
}

/** What `agent` with no arguments says without a terminal (runCli), instead of a chat or the help. */
export const NO_TERMINAL_HINT =
  'agent needs a terminal for a chat; without one, use agent run "goal" (agent --help for commands)';

/**
 * The arguments to parse: `agent` alone on a terminal (stdin and stdout) is `agent chat`; without one,
 * runCli prints NO_TERMINAL_HINT and exits 2.
 */
export function effectiveArgs(args: string[], terminal: boolean): string[] {
  return args.length === 0 && terminal ? ["chat"] : args;
}

/** Commands whose JSON mode promises one JSON object on every exit (the others print their own JSON).
 * `eval` prints its report, or this error object when it exits before one (docs/eval.md). */
const JSON_RESULT_COMMANDS = new Set(["run", "helper", "eval"]);

/**
 * Runs the CLI with user arguments (no `node script` prefix); resolves to the exit code. `io` is the
 * process's own unless a caller in the same process gives its own (the in-process tests).
 */
export async function runCli(args: string[], io: RunIo = processRunIo()): Promise<number> {
  // From here on a closed stdout is an abort signal, never an uncaught EPIPE with a stack trace.
  stdoutPipe();
  const terminal = io.terminal.stdin && io.terminal.stdout;
  if (args.length === 0 && !terminal) {
    // As `agent chat` says without a terminal: one line on stderr (it starts with the program name, so
    // no `agent:` prefix), stdout left empty for a pipe.
    io.stderr.write(`${NO_TERMINAL_HINT}\n`);
    return ExitCode.usage;
  }
  const expanded = expandShorthands(effectiveArgs(args, terminal), [...COMMAND_NAMES, "help"]);
  // Help, a misspelt command or a leading option (`agent --help`) needs every command: listed or suggested.
  const named = COMMAND_NAMES.includes(expanded[0] ?? "") ? expanded[0] : undefined;
  const program = await createProgram(named, io);
  try {
    await program.parseAsync(expanded, { from: "user" });
    return ExitCode.done;
  } catch (error) {
    if (error instanceof CommanderError && error.code === "commander.unknownCommand")
      io.stderr.write(goalHint(expanded, [...COMMAND_NAMES, "help"]));
    // `agent skills lsit`: a group's default subcommand took the word as an argument (commander suggests
    // nothing there); `agent models refresh`: the word was an option.
    if (error instanceof CommanderError && error.code === "commander.excessArguments")
      io.stderr.write(subcommandHint(program, expanded));
    const json = JSON_RESULT_COMMANDS.has(expanded[0] ?? "") && jsonRequested(expanded);
    return handleError(error, io.env, {
      stderr: io.stderr,
      ...(json ? { json: io.stdout } : {}),
    });
  }
}
