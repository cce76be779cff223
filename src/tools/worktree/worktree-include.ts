/**
 * `.worktreeinclude`: files git ignores (`.env`, local settings) that a new worktree should still get,
 * as Claude Code names the file (https://code.claude.com/docs/en/worktrees, "copy gitignored files such
 * as .env into new worktrees": gitignore-style patterns, and only files git ignores are copied).
 * The repository is not trusted: the list is read with the guarded reader (no symlink, FIFO or device,
 * at most 64 KiB), patterns are matched by git itself, and each file is copied only when it is a
 * regular file whose real path is itself inside the repository (no symlink anywhere on its path), of at
 * most 1 MiB (100 files, 10 MiB in all); it is written with O_EXCL into a folder whose real path lies
 * in the worktree. Whatever is skipped is named in the returned notes.
 */
import {
  closeSync,
  constants,
  mkdirSync,
  mkdtempSync,
  openSync,
  realpathSync,
  rmSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, isAbsolute, join, normalize } from "node:path";
import { readRegularFile } from "../../kernel/files/regular-file.ts";
import { git } from "./git.ts";

export const INCLUDE_FILE = ".worktreeinclude";
const LIST_CAP = 64 * 1024;
export const INCLUDE_FILE_CAP = 1024 * 1024;
const INCLUDE_TOTAL_CAP = 10 * 1024 * 1024;
const INCLUDE_MAX_FILES = 100;

/** What was copied (workspace-relative paths) and why others were not. */
export interface IncludeReport {
  copied: string[];
  notes: string[];
}

/** Copies the ignored files `.worktreeinclude` in `sourceTop` lists into `targetTop` (a new worktree). */
export async function copyIncludedFiles(
  sourceTop: string,
  targetTop: string,
  env: Record<string, string | undefined>,
): Promise<IncludeReport> {
  const report: IncludeReport = { copied: [], notes: [] };
  let listed: Awaited<ReturnType<typeof readRegularFile>>;
  try {
    listed = await readRegularFile(join(sourceTop, INCLUDE_FILE), LIST_CAP, { noFollow: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return report;
    report.notes.push(`${INCLUDE_FILE}: not read (${(error as Error).message})`);
    return report;
  }
  if (!listed.ok) {
    const why = listed.why === "special" ? listed.kind : `larger than ${LIST_CAP} bytes`;
    report.notes.push(`${INCLUDE_FILE}: not read: it is ${why}`);
    return report;
  }
  const candidates = matchingIgnoredFiles(sourceTop, listed.bytes.toString("utf8"), env);
  let total = 0;
  for (const rel of candidates) {
    if (report.copied.length >= INCLUDE_MAX_FILES) {
      report.notes.push(
        `${INCLUDE_FILE}: more than ${INCLUDE_MAX_FILES} files match; the rest were not copied`,
      );
      break;
    }
    const copied = await copyOne(sourceTop, targetTop, rel, INCLUDE_TOTAL_CAP - total);
    if (typeof copied === "string") report.notes.push(`${INCLUDE_FILE}: ${rel} not copied: ${copied}`);
    else {
      total += copied;
      report.copied.push(rel);
    }
  }
  return report;
}

/** Untracked files matching the patterns that git's own ignore rules ignore too, relative to `top`. */
function matchingIgnoredFiles(
  top: string,
  patterns: string,
  env: Record<string, string | undefined>,
): string[] {
  const dir = mkdtempSync(join(tmpdir(), "agent-worktreeinclude-"));
  try {
    const file = join(dir, "patterns");
    writeFileSync(file, patterns, { mode: 0o600 });
    const matched = git(top, ["ls-files", "-z", "--others", "--ignored", `--exclude-from=${file}`], env);
    if (!matched.ok) return [];
    const paths = matched.stdout.split("\0").filter((p) => p !== "");
    if (paths.length === 0) return [];
    // check-ignore prints the paths git ignores (exit 1 when none is): the others are not copied.
    const ignored = git(top, ["check-ignore", "-z", "--stdin"], env, `${paths.join("\0")}\0`);
    return ignored.stdout.split("\0").filter((p) => p !== "");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Copies one file; its size, or why it was not copied. */
async function copyOne(
  sourceTop: string,
  targetTop: string,
  rel: string,
  room: number,
): Promise<number | string> {
  const clean = normalize(rel);
  if (isAbsolute(clean) || clean.startsWith("..") || clean.split("/").includes(".git"))
    return "not a path inside the repository";
  const source = join(sourceTop, clean);
  let real: string;
  try {
    real = realpathSync(source);
  } catch {
    return "gone";
  }
  if (real !== source) return "a symbolic link is on its path";
  const read = await readRegularFile(source, Math.min(INCLUDE_FILE_CAP, Math.max(room, 0)), {
    noFollow: true,
  }).catch((error: Error) => ({ ok: false as const, why: "special" as const, kind: error.message }));
  if (!read.ok)
    return read.why === "special"
      ? `it is ${read.kind}`
      : `larger than the ${INCLUDE_FILE_CAP}-byte cap (or the 10 MiB total)`;
  const target = join(targetTop, clean);
  mkdirSync(dirname(target), { recursive: true });
  const parent = realpathSync(dirname(target));
  if (parent !== dirname(target)) return "its folder in the worktree is a symbolic link";
  let fd: number;
  try {
    fd = openSync(
      target,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      0o600,
    );
  } catch (error) {
    return `cannot create it in the worktree (${(error as NodeJS.ErrnoException).code ?? "error"})`;
  }
  try {
    writeSync(fd, read.bytes);
  } finally {
    closeSync(fd);
  }
  return read.bytes.length;
}
