import { constants } from "node:fs";
import { lstat, open, realpath, stat } from "node:fs/promises";
import { relative, sep } from "node:path";
import { AppError, type AppErrorKind } from "./errors.ts";

/**
 * The one way the CLI reads a file it finds on its own (agent specs, config.yaml, the project's
 * `.agent/` files): never blocks, never reads without bound. A FIFO, a device, a directory, a file
 * above {@link CONFIG_FILE_CAP}, or (for workspace files) a symlink leading out of the workspace is
 * refused with a message naming the file. The file is checked with stat before it is opened, opened
 * with O_NONBLOCK (a FIFO swapped in after the check cannot block the open), checked again on the
 * open descriptor, and read for at most cap + 1 bytes.
 */

/** Largest config or spec file read (1 MiB); README "Configuration". */
export const CONFIG_FILE_CAP = 1024 * 1024;

export interface ConfigFileOptions {
  /** Error kind of a refusal: "config" or "spec" (both exit 3). */
  kind: Extract<AppErrorKind, "config" | "spec">;
  /** A directory the file's real path must lie inside (the workspace, for project files). */
  within?: string;
  /** Byte cap; defaults to CONFIG_FILE_CAP. */
  cap?: number;
}

/**
 * Alias resolutions allowed while turning a spec or config document into data. The yaml package's
 * `toJS` option `maxAliasCount` (node_modules/yaml/dist/options.d.ts: "Prevent exponential entity
 * expansion attacks by limiting data aliasing count", default 100) throws a ReferenceError past it, so a
 * "billion laughs" document is refused instead of expanding until memory runs out.
 */
export const MAX_ALIAS_COUNT = 100;

/** The message for a YAML document refused while resolving its aliases. */
export function yamlAliasMessage(error: unknown): string {
  return `invalid YAML: too many alias expansions (${message(error)}); refused`;
}

/** The outcome of reading one file: its text, absent, or refused with a reason. */
export type ConfigFileRead = { text: string } | { missing: true } | { refused: string };

/** Reads a config or spec file safely; see the module comment. Never throws. */
export async function readConfigFileResult(
  file: string,
  options: Omit<ConfigFileOptions, "kind">,
): Promise<ConfigFileRead> {
  const cap = options.cap ?? CONFIG_FILE_CAP;
  try {
    await lstat(file);
  } catch (error) {
    if (errno(error) === "ENOENT") return { missing: true };
    return { refused: `cannot read: ${message(error)}` };
  }
  let real: string;
  try {
    real = await realpath(file);
  } catch (error) {
    return { refused: `cannot resolve (${errno(error) ?? message(error)}): a broken symlink?` };
  }
  if (options.within !== undefined) {
    const root = await realpath(options.within).catch(() => options.within as string);
    if (!inside(real, root)) return { refused: `a symlink out of the workspace (to ${real}); refused` };
  }
  try {
    const before = await stat(real);
    const kind = nonRegular(before);
    if (kind) return { refused: `${kind}, not a regular file; refused` };
    if (before.size > cap) return { refused: tooLarge(cap) };
    const handle = await open(real, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const after = await handle.stat();
      const swapped = nonRegular(after);
      if (swapped) return { refused: `${swapped}, not a regular file; refused` };
      const buffer = Buffer.alloc(cap + 1);
      let length = 0;
      while (length < buffer.length) {
        const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
        if (bytesRead === 0) break;
        length += bytesRead;
      }
      if (length > cap) return { refused: tooLarge(cap) };
      return { text: buffer.subarray(0, length).toString("utf8") };
    } finally {
      await handle.close();
    }
  } catch (error) {
    return { refused: `cannot read: ${message(error)}` };
  }
}

/** Reads a config or spec file safely; undefined when absent; a refusal is an AppError naming the file. */
export async function readConfigFile(file: string, options: ConfigFileOptions): Promise<string | undefined> {
  const read = await readConfigFileResult(file, options);
  if ("text" in read) return read.text;
  if ("missing" in read) return undefined;
  throw new AppError(options.kind, `${file}: ${read.refused}`, { file });
}

function nonRegular(s: {
  isFile(): boolean;
  isFIFO(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
  isDirectory(): boolean;
  isSocket(): boolean;
}): string | undefined {
  if (s.isFile()) return undefined;
  if (s.isFIFO()) return "a FIFO";
  if (s.isCharacterDevice() || s.isBlockDevice()) return "a device";
  if (s.isDirectory()) return "a directory";
  if (s.isSocket()) return "a socket";
  return "a special file";
}

function tooLarge(cap: number): string {
  return `larger than the ${cap} byte limit for config and spec files; refused`;
}

function inside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !rel.startsWith(sep));
}

function errno(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
