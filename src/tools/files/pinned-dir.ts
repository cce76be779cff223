/**
 * A directory inside the workspace held open by descriptor, so what a file operation checked is what it
 * uses: a concurrent command that swaps a folder for a symlink to elsewhere cannot redirect it.
 *
 * Bun and Node have no openat(2). On Linux the same effect comes from the descriptor's magic link: a path
 * `/proc/self/fd/N/name` resolves `name` inside the very directory N was opened on (proc(5): "a symbolic
 * link to the actual file"), whatever now sits at the directory's old path. The walk starts at the
 * workspace root that holds the directory and opens one component at a time with O_NOFOLLOW|O_DIRECTORY
 * (open(2): O_NOFOLLOW fails with ELOOP on a symlink in the last component), creating missing ones with
 * mkdir at the same pinned place; every step is therefore a real folder below the root. The final
 * directory's real path (readlink of its magic link) is checked against the workspace again, and callers
 * re-check it (verify) before they rename into it.
 *
 * Elsewhere (macOS has no /proc) the walk uses real paths with the same O_NOFOLLOW opens and lstat checks:
 * a swap between two steps is still possible there, in a window of microseconds (docs/security.md).
 */
import { closeSync, constants, lstatSync, mkdirSync, openSync, readlinkSync, realpathSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { isWithin, type Workspace } from "../workspace.ts";
import { FileError } from "./file-error.ts";

const DIR_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;
const HAS_PROC_FD = process.platform === "linux";

/** An open directory inside the workspace. `path(name)` names an entry in it without following the folder's path again. */
export interface PinnedDir {
  /** The directory's real path when it was opened. */
  readonly real: string;
  /** A path for entry `name` of this very directory (`/proc/self/fd/N/name` on Linux). */
  path(name: string): string;
  /** Throws when the directory has since moved outside the workspace (or was deleted). */
  verify(): void;
  /** The folders the walk created, outermost first (so a failed write can remove them again). */
  readonly created: readonly string[];
  close(): void;
}

/**
 * Opens `dirAbs` (a real path the workspace resolved) one component at a time from its root, creating
 * missing folders when `create` is set. Throws FileError when a component is missing (ENOENT kept as the
 * code), is a symlink or not a folder (the tree changed since the path was resolved), or lies outside.
 */
export function openPinnedDir(
  workspace: Workspace,
  dirAbs: string,
  shownAs: string,
  create: boolean,
): PinnedDir {
  // A read (never a create) may also be in a read-only root: an activated skill's folder.
  const root =
    workspace.roots.find((r) => isWithin(r, dirAbs)) ??
    (create ? undefined : workspace.readOnlyRoots.find((r) => isWithin(r, dirAbs)));
  if (root === undefined) throw new FileError(`${shownAs} is outside the workspace`);
  const created: string[] = [];
  let fd = openSync(root, DIR_FLAGS);
  let real = root;
  try {
    if (realOf(fd, root) !== root) throw changed(shownAs, "the workspace root moved");
    for (const part of relative(root, dirAbs)
      .split(sep)
      .filter((p) => p !== "")) {
      const at = HAS_PROC_FD ? `/proc/self/fd/${fd}/${part}` : join(real, part);
      let next: number;
      try {
        next = openSync(at, DIR_FLAGS);
      } catch (error) {
        if (code(error) !== "ENOENT" || !create) throw translate(error, shownAs, part, at);
        try {
          mkdirSync(at, 0o777);
          created.push(join(real, part));
        } catch (made) {
          if (code(made) !== "EEXIST") throw translate(made, shownAs, part, at);
        }
        // Something else may have appeared there meanwhile (a symlink): judged like the first open.
        try {
          next = openSync(at, DIR_FLAGS);
        } catch (again) {
          throw translate(again, shownAs, part, at);
        }
      }
      closeSync(fd);
      fd = next;
      real = join(real, part);
    }
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  const pinned = fd;
  const dir: PinnedDir = {
    real,
    created,
    path: (name) => (HAS_PROC_FD ? `/proc/self/fd/${pinned}/${name}` : join(real, name)),
    verify() {
      const now = realOf(pinned, real);
      const inside = workspace.contains(now) || (!create && workspace.inReadOnlyRoot(now));
      if (now !== real || !inside) throw changed(shownAs, `its folder is now at ${now}`);
    },
    close: () => closeSync(pinned),
  };
  try {
    dir.verify();
  } catch (error) {
    dir.close();
    throw error;
  }
  return dir;
}

/** The real path of an open directory: its magic link on Linux, else realpath of where it was opened. */
function realOf(fd: number, opened: string): string {
  return HAS_PROC_FD ? readlinkSync(`/proc/self/fd/${fd}`) : realpathSync(opened);
}

function changed(shownAs: string, why: string): FileError {
  return new FileError(`${shownAs} changed while in use (${why}); nothing was done to it`);
}

/** A failed component open as the model should read it; ENOENT keeps its code for "not found" callers. */
function translate(error: unknown, shownAs: string, part: string, at: string): unknown {
  const c = code(error);
  // A plain file on the way (`a.txt/b`) means the path does not exist, as it did when it was resolved.
  if (c === "ENOTDIR" && lstatSync(at, { throwIfNoEntry: false })?.isFile() === true)
    return Object.assign(new FileError(`${shownAs}: ${part} is a file, not a folder`), { code: "ENOENT" });
  if (c === "ELOOP" || c === "ENOTDIR")
    return changed(shownAs, `${part} is a symbolic link or not a folder on the way`);
  return error;
}

export function code(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}
