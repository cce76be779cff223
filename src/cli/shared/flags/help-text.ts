/**
 * The end of `run`, `helper` and `chat` --help: three examples and the exit codes (the documented table:
 * docs/ci-and-json.md "Exit codes"; the values are kernel ExitCode's).
 */
import type { Command } from "commander";
import { ExitCode } from "../../../kernel/index.ts";

/** One line per exit code, short: the docs page holds the details. */
const EXIT_CODES: [ExitCode, string][] = [
  [ExitCode.done, "done (also after denied actions, listed on stderr and in JSON)"],
  [ExitCode.failure, "the agent failed, refused, or its answer or verify: commands did not pass"],
  [ExitCode.usage, "usage error (bad flag or argument, unknown --resume id)"],
  [ExitCode.config, "configuration or spec error, or no provider key"],
  [ExitCode.provider, "provider error after retries (auth, quota, unreachable)"],
  [ExitCode.limit, "a limit ended the run (turns, time, budget, output or context)"],
  [ExitCode.approvalNeeded, "an approval was needed and --on-ask fail was given"],
  [ExitCode.internal, "internal error (a bug in agent; AGENT_DEBUG=1 shows the stack)"],
  [ExitCode.hangup, "hung up (SIGHUP: the terminal or SSH session closed)"],
  [ExitCode.interrupted, "interrupted (Ctrl-C, SIGTERM)"],
  [ExitCode.brokenPipe, "stdout was closed by its reader"],
];

/**
 * Adds the examples (command, what it does) and the exit codes after a command's options. `omit` drops the
 * codes the command cannot end with (helper and chat have no --on-ask, so never exit 6).
 */
export function addExamplesAndExitCodes(
  command: Command,
  examples: [string, string][],
  omit: readonly ExitCode[] = [],
): Command {
  const lines = ["", "Examples:"];
  for (const [text, what] of examples) lines.push(`  $ ${text}`, `      ${what}`);
  lines.push("", "Exit codes (docs/ci-and-json.md):");
  for (const [code, meaning] of EXIT_CODES) {
    if (omit.includes(code)) continue;
    lines.push(`  ${String(code).padStart(3)}  ${meaning}`);
  }
  return command.addHelpText("after", lines.join("\n"));
}
