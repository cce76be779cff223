/**
 * Runs git for the worktree machinery, never as a repository would like it to run: the repository's own
 * hooks and fsmonitor program are switched off on every call (`-c core.hooksPath=/dev/null`,
 * `-c core.fsmonitor=false`; git-config(1): core.hooksPath, core.fsmonitor), `GIT_*` variables of the caller
 * are not passed on, output is bounded, and nothing is read from a terminal (`GIT_TERMINAL_PROMPT=0`).
 */
import { spawnSync } from "node:child_process";

/** What one git call printed and how it ended. */
export interface GitResult {
  ok: boolean;
  stdout: string;
  stderr: string;
  /** The raw bytes of stdout (file contents from `git show`). */
  bytes: Buffer;
}

/** The most output one git call may print (a diff or file list); more is an error. */
const MAX_GIT_OUTPUT = 64 * 1024 * 1024;
const GIT_TIMEOUT_MS = 60_000;

const SAFE_CONFIG = ["-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false"];

/** The variables git gets: where to find programs and the user's own git config, nothing else. */
function gitEnv(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = { LC_ALL: "C", GIT_TERMINAL_PROMPT: "0" };
  for (const name of ["PATH", "HOME", "XDG_CONFIG_HOME"]) {
    const value = env[name];
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/** Runs `git ARGS` in `cwd` (`extraEnv`: git's own variables for this call, e.g. GIT_INDEX_FILE); never throws for git's own failures (ok is false, stderr says why). */
export function git(
  cwd: string,
  args: readonly string[],
  env: Record<string, string | undefined> = process.env,
  input?: string,
  extraEnv: Record<string, string> = {},
): GitResult {
  const run = spawnSync("git", [...SAFE_CONFIG, ...args], {
    cwd,
    env: { ...gitEnv(env), ...extraEnv },
    maxBuffer: MAX_GIT_OUTPUT,
    timeout: GIT_TIMEOUT_MS,
    ...(input !== undefined ? { input } : {}),
    stdio: ["pipe", "pipe", "pipe"],
  });
  const bytes = run.stdout ?? Buffer.alloc(0);
  const stderr = run.error ? run.error.message : (run.stderr?.toString("utf8") ?? "");
  return { ok: run.status === 0 && !run.error, stdout: bytes.toString("utf8"), stderr: stderr.trim(), bytes };
}

/** Runs git and returns its trimmed stdout; throws an Error naming the command and git's message. */
export function gitOrThrow(
  cwd: string,
  args: readonly string[],
  env: Record<string, string | undefined> = process.env,
): string {
  const result = git(cwd, args, env);
  if (!result.ok) throw new Error(`git ${args.join(" ")} failed: ${result.stderr || "no message"}`);
  return result.stdout.trim();
}

/** The `-c` settings a commit needs when the user's git config names nobody: a fixed agent identity. */
export function identityArgs(cwd: string, env: Record<string, string | undefined>): string[] {
  const email = git(cwd, ["config", "user.email"], env);
  const name = git(cwd, ["config", "user.name"], env);
  const args: string[] = [];
  if (!email.ok || email.stdout.trim() === "") args.push("-c", "user.email=agent@localhost");
  if (!name.ok || name.stdout.trim() === "") args.push("-c", "user.name=agent");
  return args;
}
