import { stderr, stdout } from "./std-streams.ts";

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
