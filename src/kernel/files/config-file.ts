import { lstat, realpath } from "node:fs/promises";
import { relative, sep } from "node:path";
import { AppError, type AppErrorKind } from "../errors.ts";
import { type RegularRead, readRegularFile } from "./regular-file.ts";

/**
 * The one way the CLI reads a file it finds on its own (agent specs, config.yaml, the project's
 * `.agent/` files): never blocks, never reads without bound. A FIFO, a device, a directory, a file
 * above {@link CONFIG_FILE_CAP}, or (for workspace files) a symlink leading out of the workspace is
 * refused with a message naming the file. The read itself is regular-file.ts's (stat, non-blocking
 * open, fstat, bounded read).
 */

/** Largest config or spec file read (1 MiB); docs/configuration.md. */
export const CONFIG_FILE_CAP = 1024 * 1024;

export interface ConfigFileOptions {
  /** Error kind of a refusal: "config" or "spec" (both exit 3). */
  kind: Extract<AppErrorKind, "config" | "spec">;
  /** A directory the file's real path must lie inside (the workspace, for project files). */
  within?: string;
  /** Byte cap; defaults to CONFIG_FILE_CAP. */
  cap?: number;
  /** A file over the cap gives its first `cap` bytes (marked `cut`) instead of being refused. */
  head?: boolean;
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
export type ConfigFileRead =
  | { text: string /** With `head`: the file was longer than `cap`; `text` is its head. */; cut?: true }
  | { missing: true }
  | { refused: string };

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
    const read = await readRegularFile(real, cap, options.head ? { head: true } : {});
    if (read.ok) {
      const text = read.bytes.toString("utf8");
      return read.size !== undefined ? { text, cut: true } : { text };
    }
    return { refused: regularRefusal(read, cap) };
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

/** Why a regular-file read was refused, in the words of every config, spec and skill warning. */
export function regularRefusal(read: Exclude<RegularRead, { ok: true }>, cap: number): string {
  if (read.why === "special") return `${read.kind}, not a regular file; refused`;
  return tooLarge(cap);
}

function tooLarge(cap: number): string {
  return `larger than the ${cap} byte limit for config and spec files; refused`;
}

/** True when `path` is `root` or lies under it (both absolute, compared as written). */
export function isPathInside(path: string, root: string): boolean {
  return inside(path, root);
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
