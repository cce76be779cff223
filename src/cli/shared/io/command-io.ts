/** Where a command reads and reports: the process's own directory, environment and streams, or a test's. */
import type { TextSink } from "../../../ui/renderer-types.ts";
import { isTerminal, stderr, stdout } from "./std-streams.ts";

/** A stream a command reports on. */
export type Out = { write(text: string): unknown };

/** Where a listing command (`agent agents`, `skills`, `sessions`) reads and reports; tests pass their own. */
export interface CommandIo {
  /** The directory the command runs in (the workspace whose agents, skills or sessions it lists). */
  cwd: string;
  env: Record<string, string | undefined>;
  stdout: Out;
  stderr: Out;
}

/** The process's own directory, environment and standard streams. */
export function processIo(): CommandIo {
  return { cwd: process.cwd(), env: process.env, stdout, stderr };
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
