import { homedir } from "node:os";
import { join } from "node:path";

type Env = Record<string, string | undefined>;

/** `$XDG_CONFIG_HOME/agent` (default `~/.config/agent`): config.yaml, agents/*.yaml. */
export function configDir(env: Env = process.env): string {
  return join(env.XDG_CONFIG_HOME || join(homedir(), ".config"), "agent");
}

/** `$XDG_STATE_HOME/agent` (default `~/.local/state/agent`): sessions/, learn.jsonl. */
export function stateDir(env: Env = process.env): string {
  return join(env.XDG_STATE_HOME || join(homedir(), ".local", "state"), "agent");
}

export function sessionsDir(env: Env = process.env): string {
  return join(stateDir(env), "sessions");
}

/** `$XDG_STATE_HOME/agent/worktrees`: the git worktrees `--worktree` and `isolation: worktree` make (docs/worktrees.md). */
export function worktreesDir(env: Env = process.env): string {
  return join(stateDir(env), "worktrees");
}

/** `$XDG_STATE_HOME/agent/checkpoints`: one shadow git repository per workspace (docs/rewind.md). */
export function checkpointsDir(env: Env = process.env): string {
  return join(stateDir(env), "checkpoints");
}
