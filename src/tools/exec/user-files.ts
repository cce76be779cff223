/**
 * The user's own files that a workspace at HOME (or above it: a chat started in `~`, a container whose
 * workspace is `/`) would otherwise expose to writes: agent's config, state and cache, the user's skills,
 * shell start-up files (run by the user's next shell, outside any sandbox), git's user config (a
 * `core.fsmonitor` there runs at the next git command) and `~/.ssh`. The sandbox binds the existing ones
 * read-only and the file tools treat a write to any of them, existing or not, as sensitive (it asks).
 * Paths are real paths where they exist; leaf module (no imports from tools), so sandbox and workspace share it.
 */
import { realpathSync } from "node:fs";
import { basename, dirname, isAbsolute, join } from "node:path";

/** Start-up files of bash, sh, zsh, ksh, csh/tcsh and fish (bash(1) INVOCATION, zsh(1) STARTUP/SHUTDOWN FILES). */
const SHELL_FILES = [
  ".bashrc",
  ".bash_profile",
  ".bash_login",
  ".bash_logout",
  ".profile",
  ".zshrc",
  ".zshenv",
  ".zprofile",
  ".zlogin",
  ".zlogout",
  ".kshrc",
  ".mkshrc",
  ".cshrc",
  ".tcshrc",
  ".login",
  ".logout",
  ".inputrc",
  ".config/fish",
];
/** Other files in HOME whose change runs code or grants access later. */
const OTHER_HOME_FILES = [".gitconfig", ".config/git", ".ssh", ".agents"];

/** Real absolute paths of the user's own files (see the module comment) for the environment `env`. */
export function userFiles(env: Record<string, string | undefined>): string[] {
  const home = absolute(env.HOME);
  const paths: string[] = [];
  const xdg = (name: string, fallback: string): string | undefined => {
    const set = absolute(env[name]);
    if (set !== undefined) return set;
    return home === undefined ? undefined : join(home, fallback);
  };
  for (const [name, fallback] of [
    ["XDG_CONFIG_HOME", ".config"],
    ["XDG_STATE_HOME", ".local/state"],
    ["XDG_CACHE_HOME", ".cache"],
    ["XDG_DATA_HOME", ".local/share"],
  ] as const) {
    const base = xdg(name, fallback);
    if (base !== undefined) paths.push(join(base, "agent"));
  }
  if (home !== undefined)
    for (const name of [...SHELL_FILES, ...OTHER_HOME_FILES]) paths.push(join(home, name));
  return [...new Set(paths.map(realPathOrLexical))];
}

function absolute(value: string | undefined): string | undefined {
  return value !== undefined && isAbsolute(value) ? value : undefined;
}

/** The real path of `path`, or of its deepest existing ancestor with the rest appended (lexically). */
function realPathOrLexical(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : join(realPathOrLexical(parent), basename(path));
  }
}
