/** Where a command reads and reports: the process's own directory, environment and streams, or a test's. */
import type { TextSink } from "../../../ui/renderer-types.ts";
import { isTerminal, stderr, stdout } from "./std-streams.ts";
import { type Out, TerminalOut } from "./terminal-out.ts";

export type { Out } from "./terminal-out.ts";

/**
 * Where a command that shows others' text (`agent agents`, `skills`, `sessions`, `models`, `mcp`, `eval`)
 * reads and reports. Its streams are {@link TerminalOut}s, made only by {@link commandIo}: what it writes
 * passes the terminal filter whatever its source.
 */
export interface CommandIo {
  /** The directory the command runs in (the workspace whose agents, skills or sessions it lists). */
  cwd: string;
  env: Record<string, string | undefined>;
  stdout: TerminalOut;
  stderr: TerminalOut;
}

/** A command's io over the given streams (the process's, or an in-process caller's), filtered. */
export function commandIo(io: {
  cwd: string;
  env: Record<string, string | undefined>;
  stdout: Out;
  stderr: Out;
}): CommandIo {
  return { cwd: io.cwd, env: io.env, stdout: new TerminalOut(io.stdout), stderr: new TerminalOut(io.stderr) };
}

/** The process's own directory, environment and standard streams, filtered. */
export function processIo(): CommandIo {
  return commandIo({ cwd: process.cwd(), env: process.env, stdout, stderr });
}

/**
 * Where `agent run` reads and reports: the process's own (bin/agent), or a caller's in the same process
 * (the in-process tests, which check what the user sees without starting a process). Signals, a closed
 * stdout and the Ink UI stay the process's: only a terminal run draws, and it draws on process.stdout.
 */
export interface RunIo {
  cwd: string;
  env: Record<string, string | undefined>;
  stdout: TextSink;
  stderr: TextSink;
  /** Piped input; undefined reads the process's stdin (fd 0) when it is not a terminal. */
  stdin?: ReadableStream<Uint8Array>;
  /** Which of stdin, stdout and stderr are terminals (the renderer, approvals and `agent` alone depend on it). */
  terminal: { stdin: boolean; stdout: boolean; stderr: boolean };
}

/** The process's own directory, environment, standard streams and terminals. */
export function processRunIo(): RunIo {
  return {
    cwd: process.cwd(),
    env: process.env,
    stdout,
    stderr,
    terminal: {
      get stdin() {
        return isTerminal(0);
      },
      get stdout() {
        return stdout.isTTY;
      },
      get stderr() {
        return stderr.isTTY;
      },
    },
  };
}
