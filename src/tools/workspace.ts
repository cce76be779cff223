/**
 * The workspace every primitive runs in: its roots, and the path guard that keeps file access inside them.
 * Paths are resolved to real paths (symlinks resolved, also for files that do not exist yet) and must lie
 * inside a root by whole path components.
 */

import { lstat, readlink, realpath } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import type { ExecSandbox } from "./exec/exec-sandbox.ts";
import { userFiles } from "./exec/user-files.ts";

/** A path the model asked for that lies outside the workspace or cannot be resolved. */
export class WorkspaceError extends Error {
  constructor(
    message: string,
    /** The path as given. */
    readonly path: string,
  ) {
    super(message);
    this.name = "WorkspaceError";
  }
}

/** Top-level folders holding the agent's own config; changing them needs approval. */
const SENSITIVE_TOP = new Set([".agent"]);
/**
 * Names (compared case-insensitively, as on macOS and Windows file systems) that are sensitive wherever
 * they appear: `.git` (a folder, or a file naming a git dir elsewhere) and `.gitmodules`. A file named
 * `HEAD` is sensitive too: its presence makes git treat the folder as a repository (a bare one needs only
 * HEAD, objects/ and refs/: gitrepository-layout(5); docs.rs gix_discover::is_git "a valid head, an
 * objects directory, a refs directory"), so writing one cannot make a repository.
 */
const SENSITIVE_ANY = new Set([".git", ".gitmodules"]);
/** File names (the last component only, case-insensitively) sensitive anywhere. */
const SENSITIVE_FILES = new Set(["head"]);
/** What a git dir holds (gitrepository-layout(5)): changing one inside a folder that has HEAD is sensitive. */
const GIT_DIR_ENTRIES = new Set([
  "config",
  "config.worktree",
  "objects",
  "refs",
  "hooks",
  "info",
  "packed-refs",
  "index",
  "commondir",
  "gitdir",
  "modules",
  "worktrees",
  "logs",
  "fetch_head",
  "orig_head",
]);
/** Bounds symlink chains (ELOOP in the kernel is 40). */
const MAX_LINKS = 40;

export interface WorkspaceOptions {
  /** More directories the tools may touch besides the root. */
  extraRoots?: string[];
  /** The environment whose HOME and XDG variables name the user's own files (user-files.ts); a write
   * to one of them inside the workspace is sensitive. Defaults to `process.env`. */
  env?: Record<string, string | undefined>;
}

/** The user's own files inside the roots, found on first use and kept (user-files.ts). */
type UserFilesOnce = () => readonly string[];

/** The variables userFiles() reads, taken when the workspace opens (a later change of the environment
 * does not move the user's files). */
const USER_FILE_VARS = ["HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME"];

function userFilesOnce(roots: readonly string[], given: Record<string, string | undefined>): UserFilesOnce {
  const env = Object.fromEntries(USER_FILE_VARS.map((name) => [name, given[name]]));
  let found: readonly string[] | undefined;
  return () => {
    found ??= userFiles(env).filter((p) => roots.some((r) => isWithin(r, p)));
    return found;
  };
}

export class Workspace {
  private constructor(
    /** The real path of the main root. */
    readonly root: string,
    /** Real paths of every root, the main one first. */
    readonly roots: readonly string[],
    private readonly findUserFiles: UserFilesOnce,
    /** The sandbox exec and `verify:` commands run in (sandbox.ts); none runs them unsandboxed. */
    readonly sandbox?: ExecSandbox,
    /** Real paths of folders the file tools may read but never change: activated skills' folders. */
    readonly readOnlyRoots: readonly string[] = [],
  ) {}

  /**
   * Real paths of the user's own files that lie inside a root (user-files.ts): writes there ask. Resolved
   * on first use, before the first write is judged (a session that changes no file, like a plain
   * `agent helper` call, resolves none: about 25 realpath calls, most of them failing).
   */
  get userFiles(): readonly string[] {
    return this.findUserFiles();
  }

  /** The same workspace with commands run in `sandbox` (or unsandboxed when undefined). */
  withSandbox(sandbox: ExecSandbox | undefined): Workspace {
    return new Workspace(this.root, this.roots, this.findUserFiles, sandbox, this.readOnlyRoots);
  }

  /**
   * The same workspace with `dir` (a real path) readable by read_file, grep and glob, never writable: an
   * activated skill's folder (DESIGN "Tools, workspace and sandbox"). exec and its sandbox are unchanged.
   */
  withReadOnlyRoot(dir: string): Workspace {
    if (this.readOnlyRoots.includes(dir) || this.contains(dir)) return this;
    return new Workspace(this.root, this.roots, this.findUserFiles, this.sandbox, [
      ...this.readOnlyRoots,
      dir,
    ]);
  }

  /** Like resolve(), for a read: a path inside a read-only root (an activated skill's folder) is allowed too. */
  async resolveForRead(path: string): Promise<string> {
    if (this.readOnlyRoots.length === 0) return this.resolve(path);
    try {
      return await this.resolve(path);
    } catch (error) {
      if (!(error instanceof WorkspaceError) || path.includes("\0")) throw error;
      const real = await realPathLoose(resolve(this.root, path)).catch(() => undefined);
      if (real !== undefined && this.inReadOnlyRoot(real)) return real;
      throw error;
    }
  }

  /** True when a real path lies in a read-only root (and so outside every writable root). */
  inReadOnlyRoot(realPath: string): boolean {
    return !this.contains(realPath) && this.readOnlyRoots.some((root) => isWithin(root, realPath));
  }

  /** Opens a workspace at `root` (must be an existing directory); roots are resolved with realpath. */
  static async open(root: string, options: WorkspaceOptions = {}): Promise<Workspace> {
    const roots: string[] = [];
    for (const dir of [root, ...(options.extraRoots ?? [])]) {
      let real: string;
      try {
        real = await realpath(resolve(dir));
      } catch {
        throw new WorkspaceError(`workspace root ${dir} does not exist`, dir);
      }
      const stats = await lstat(real);
      if (!stats.isDirectory()) throw new WorkspaceError(`workspace root ${dir} is not a directory`, dir);
      if (!roots.includes(real)) roots.push(real);
    }
    const [main] = roots;
    if (main === undefined) throw new WorkspaceError("no workspace root given", root);
    return new Workspace(main, roots, userFilesOnce(roots, options.env ?? process.env));
  }

  /**
   * Resolves a workspace-relative or absolute path to its real absolute path and checks it lies inside a
   * root. Works for paths that do not exist yet (the deepest existing ancestor is resolved). Throws
   * WorkspaceError otherwise.
   */
  async resolve(path: string): Promise<string> {
    if (path.includes("\0"))
      throw new WorkspaceError(`path ${JSON.stringify(path)} contains a NUL byte`, path);
    const lexical = resolve(this.root, path);
    let real: string;
    try {
      real = await realPathLoose(lexical);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new WorkspaceError(`cannot resolve path ${path}: ${reason}`, path);
    }
    if (!this.contains(real)) {
      const shown = real === lexical ? real : `${lexical} -> ${real}`;
      throw new WorkspaceError(
        `path ${path} is outside the workspace (${shown}); allowed roots: ${this.roots.join(", ")}`,
        path,
      );
    }
    return real;
  }

  /** True when a real absolute path lies inside one of the roots (whole path components). */
  contains(realPath: string): boolean {
    return this.roots.some((root) => isWithin(root, realPath));
  }

  /** The path relative to the main root ("." for the root itself); absolute when it lies in another root. */
  relative(absPath: string): string {
    if (isWithin(this.root, absPath)) return relative(this.root, absPath) || ".";
    return absPath;
  }

  /** True for `.git` internals (at any depth), `HEAD`, `.gitmodules` and the agent's own config `.agent/`. */
  isSensitive(relPath: string): boolean {
    const parts = relPath.split(/[\\/]+/).filter((p) => p !== "" && p !== ".");
    if (parts[0] !== undefined && SENSITIVE_TOP.has(parts[0]) && !isAbsolute(relPath)) return true;
    if (SENSITIVE_FILES.has(parts.at(-1)?.toLowerCase() ?? "")) return true;
    return parts.some((p) => SENSITIVE_ANY.has(p.toLowerCase()));
  }

  /**
   * True when changing the real path `absPath` changes git or agent metadata: what isSensitive() names,
   * a path in or under one of the user's own files (shell start-up files, agent's config and state),
   * or a git dir entry (`config`, `objects/`, `refs/`, `hooks/`, ...) of a folder that holds a `HEAD`
   * (a bare repository, or the workspace root made into one).
   */
  async isSensitiveChange(absPath: string): Promise<boolean> {
    const root = this.roots.find((r) => isWithin(r, absPath));
    if (root === undefined) return false;
    if (this.userFiles.some((file) => isWithin(file, absPath))) return true;
    // Names are judged below the root that holds the path, never in the root's own path.
    if (this.isSensitive(relative(root, absPath) || ".")) return true;
    let child = absPath;
    for (let dir = dirname(absPath); isWithin(root, dir); dir = dirname(dir)) {
      if (GIT_DIR_ENTRIES.has(basename(child).toLowerCase()) && (await exists(join(dir, "HEAD"))))
        return true;
      if (dir === root) break;
      child = dir;
    }
    return false;
  }
}

/** True when `path` is `root` or below it, comparing whole components (so `/w/p-evil` is not in `/w/p`). */
export function isWithin(root: string, path: string): boolean {
  const rel = relative(root, path);
  if (rel === "") return true;
  if (isAbsolute(rel)) return false;
  return rel !== ".." && !rel.startsWith(`..${sep}`);
}

/**
 * realpath that also works for paths that do not exist: resolves the deepest existing ancestor and appends
 * the rest. A dangling symlink is followed to its (missing) target, so writing through it is checked too.
 */
async function realPathLoose(path: string, links = 0): Promise<string> {
  try {
    return await realpath(path);
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
  const parent = dirname(path);
  if (parent === path) return path;
  const realParent = await realPathLoose(parent, links);
  const candidate = join(realParent, basename(path));
  let isLink = false;
  try {
    isLink = (await lstat(candidate)).isSymbolicLink();
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
  if (!isLink) return candidate;
  if (links >= MAX_LINKS) throw new Error("too many levels of symbolic links");
  const target = await readlink(candidate);
  return realPathLoose(resolve(realParent, target), links + 1);
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}
