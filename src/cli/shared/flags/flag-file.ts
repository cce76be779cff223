/**
 * Files named on the command line (`-s @FILE`, `--append-system @FILE`, `--schema FILE`) go through the
 * guarded reader (kernel/files/config-file.ts): a FIFO, socket or device is refused without opening it for a
 * read that waits, and nothing above 1 MiB is read. The user typed the path, so a path outside the
 * workspace is theirs to name; but a path inside the workspace is the repository's, and a symlink there
 * leading out (to `~/.ssh/id_ed25519`, say) is refused: a hostile repository must not turn
 * `-s @prompt.md` into a read of a secret that then goes to the provider.
 */
import { realpath } from "node:fs/promises";
import { resolve } from "node:path";
import { isPathInside, readConfigFileResult } from "../../../kernel/files/config-file.ts";
import { AppError } from "../../../kernel/index.ts";

/**
 * The text of the file a flag names; otherwise a usage error (exit 2) starting with `label`, the flag as
 * typed (`--system @notes.md`).
 */
export async function readFlagFile(path: string, label: string, workspace: string): Promise<string> {
  const absolute = resolve(path);
  const root = resolve(workspace);
  const real = await realpath(root).catch(() => root);
  const inWorkspace = isPathInside(absolute, root) || isPathInside(absolute, real);
  const read = await readConfigFileResult(absolute, inWorkspace ? { within: real } : {});
  if ("text" in read) return read.text;
  const why = "missing" in read ? "cannot read the file (ENOENT)" : read.refused;
  throw new AppError("usage", `${label}: ${why}`, { file: absolute });
}
