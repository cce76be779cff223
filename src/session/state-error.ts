import { AppError } from "../kernel/errors.ts";

/** What a file-system error code means for a state directory, in words a person can act on. */
const REASONS: Record<string, string> = {
  ENOSPC: "no space left on the device",
  EDQUOT: "the disk quota is exceeded",
  EROFS: "the file system is read-only",
  EACCES: "permission denied",
  EPERM: "permission denied",
  ENOTDIR: "a path component is not a directory",
  EEXIST: "a file is in the way",
  EIO: "an input/output error",
};

/**
 * An AppError of kind "state" (exit 3) for a failed write under the state directory, naming the path
 * and the reason (`ENOSPC` becomes "no space left on the device"), e.g.
 * "cannot write the session transcript /x/s.jsonl: no space left on the device (ENOSPC); free space or
 * set XDG_STATE_HOME to a writable directory".
 */
export function stateError(error: unknown, what: string, path: string): AppError {
  const code = (error as NodeJS.ErrnoException).code;
  const reason = code ? `${REASONS[code] ?? "failed"} (${code})` : (error as Error).message;
  const hint =
    code === "ENOSPC" || code === "EDQUOT"
      ? "free some space or set XDG_STATE_HOME to another directory"
      : "set XDG_STATE_HOME to a writable directory";
  return new AppError("state", `${what} ${path}: ${reason}; ${hint}`, { file: path });
}
