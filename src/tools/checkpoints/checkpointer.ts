/**
 * Checkpoints of the files an agent's calls change: before each mutating call the paths it may change
 * (`write_file`, `edit_file`, `apply_patch`: the paths they name; `exec`: every file of the workspace its
 * `.gitignore` files do not exclude) are added to the session's index in the shadow repository
 * (shadow-git.ts) and written as a tree; after the call, again; the difference is the call's change, each
 * path with its blob before and after. That is what Gemini CLI does before each tool (a snapshot of the
 * project in a shadow repository), cut to what the call touched, and it works whether or not the workspace
 * is a git repository.
 *
 * Limits (CHECKPOINT_LIMITS): a file larger than 5 MiB, or anything but a file or a symbolic link, is not
 * kept (its change is reported as not restorable); a command's snapshot that would add more than 10,000
 * files or 100 MiB at once is not taken (a warning says so). Snapshots of one session run one at a time.
 * A failure never stops the call: it is a warning, and the change is not checkpointed.
 */
import { lstat } from "node:fs/promises";
import { join } from "node:path";
import type { FileChange, SkippedPath, StoredFile } from "../../kernel/run-events/checkpoint-records.ts";
import { ShadowGit, shadowDirFor } from "./shadow-git.ts";

/** The stated caps of what a checkpoint keeps. */
export const CHECKPOINT_LIMITS = {
  /** Bytes of one file. */
  fileBytes: 5 * 1024 * 1024,
  /** New or changed files one command's snapshot may add. */
  snapshotFiles: 10_000,
  /** Bytes one command's snapshot may add. */
  snapshotBytes: 100 * 1024 * 1024,
};

/** What a mutating call may change: the paths it names, or (a command) the whole workspace. */
export type ChangeScope = { paths: readonly string[] } | "workspace";

/** What one call changed, for a `checkpoint` record. */
export interface RecordedChange {
  files: FileChange[];
  skipped: SkippedPath[];
}

/** The outcome of {@link Checkpointer.around}: the call's own value, and what was recorded or went wrong. */
export interface Around<T> {
  value: T;
  change?: RecordedChange;
  warning?: string;
}

/** Where a session's checkpoints go. */
export interface CheckpointerOptions {
  /** `$XDG_STATE_HOME/agent/checkpoints`. */
  dir: string;
  /** The workspace's real path (the shadow repository is named after it). */
  workspaceRoot: string;
  sessionId: string;
  /** The git program (default `git` on `searchPath`). */
  git?: string;
  /** The PATH git is looked up on (the session's environment's). */
  searchPath?: string;
}

interface Snapshot {
  tree: string;
  /** Paths not kept, with what they were (size and mtime), so an unchanged one is not reported. */
  skipped: Map<string, { reason: string; signature: string }>;
}

/** One session's checkpoints in the shadow repository of its workspace. */
export class Checkpointer {
  /** The user message (from 1) the calls now running belong to; the session sets it for each run. */
  turn = 1;
  private readonly git: ShadowGit;
  private ready: Promise<string | undefined> | undefined;
  private tail: Promise<unknown> = Promise.resolve();
  private warned = false;

  constructor(readonly options: CheckpointerOptions) {
    const gitDir = shadowDirFor(options.dir, options.workspaceRoot);
    this.git = new ShadowGit(
      gitDir,
      options.workspaceRoot,
      join(gitDir, `index-${options.sessionId}`),
      options.git ?? "git",
      options.searchPath,
    );
  }

  /** The shadow repository (rewinds read blobs from it). */
  get store(): ShadowGit {
    return this.git;
  }

  /**
   * Runs `call` with what it may change recorded before and after. A problem with the store becomes a
   * warning (the first one only, when git is missing) and the call runs all the same.
   */
  async around<T>(scope: ChangeScope, call: () => Promise<T>): Promise<Around<T>> {
    const unavailable = await this.open();
    if (unavailable !== undefined) {
      if (this.warned) return { value: await call() };
      this.warned = true;
      return { value: await call(), warning: unavailable };
    }
    let before: Snapshot | undefined;
    let problem: string | undefined;
    try {
      before = await this.serial(() => this.snapshot(scope));
    } catch (error) {
      problem = (error as Error).message;
    }
    let after: Snapshot | undefined;
    let value: T;
    try {
      value = await call();
    } finally {
      if (before !== undefined) {
        try {
          after = await this.serial(() => this.snapshot(scope));
        } catch (error) {
          problem = (error as Error).message;
        }
      }
    }
    if (before === undefined || after === undefined) {
      return { value, warning: `this change was not checkpointed: ${problem ?? "no snapshot"}` };
    }
    const first = before;
    const last = after;
    try {
      const change = await this.serial(() => this.difference(first, last, scope));
      return change.files.length + change.skipped.length > 0 ? { value, change } : { value };
    } catch (error) {
      return { value, warning: `this change was not checkpointed: ${(error as Error).message}` };
    }
  }

  /** Creates the store on first use; the reason checkpoints are off, or undefined when they work. */
  open(): Promise<string | undefined> {
    this.ready ??= this.git.init().then(
      () => undefined,
      (error: NodeJS.ErrnoException) =>
        error.code === "ENOENT"
          ? `checkpoints are off: git was not found on the PATH (install git to be able to rewind file changes)`
          : `checkpoints are off: ${error.message}`,
    );
    return this.ready;
  }

  /** Runs snapshot steps one at a time (sub-agents run side by side; the index is one file). */
  private serial<R>(step: () => Promise<R>): Promise<R> {
    const run = this.tail.then(step, step);
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** Brings the index up to date with the scope's files (within the caps) and writes it as a tree. */
  private async snapshot(scope: ChangeScope): Promise<Snapshot> {
    const candidates = scope === "workspace" ? await this.changedFiles() : scope.paths.map(slashes);
    const add: string[] = [];
    const skipped = new Map<string, { reason: string; signature: string }>();
    let bytes = 0;
    for (const path of candidates) {
      if (path.split("/").includes(".git")) continue;
      if (path.startsWith("/") || path.split("/").includes("..")) {
        skipped.set(path, { reason: "outside the workspace's main folder", signature: "" });
        continue;
      }
      const stats = await lstat(join(this.options.workspaceRoot, path)).catch(() => undefined);
      if (stats === undefined || stats.isSymbolicLink()) {
        add.push(path);
      } else if (stats.isFile() && stats.size <= CHECKPOINT_LIMITS.fileBytes) {
        add.push(path);
        bytes += stats.size;
      } else if (!stats.isDirectory()) {
        const reason = stats.isFile() ? "larger than 5 MiB" : "not a regular file";
        skipped.set(path, { reason, signature: `${stats.size}:${stats.mtimeMs}` });
      }
    }
    if (
      scope === "workspace" &&
      (add.length > CHECKPOINT_LIMITS.snapshotFiles || bytes > CHECKPOINT_LIMITS.snapshotBytes)
    ) {
      const mib = Math.round(bytes / 1024 / 1024);
      throw new Error(
        `the workspace has ${add.length} new or changed files (${mib} MiB) to snapshot, over the limit of ` +
          `${CHECKPOINT_LIMITS.snapshotFiles} files or 100 MiB`,
      );
    }
    if (add.length > 0) {
      const list = add.map((p) => `${p}\0`).join("");
      await this.git.ok(["update-index", "--add", "--remove", "-z", "--stdin"], list);
    }
    const tree = (await this.git.ok(["write-tree"])).toString("utf8").trim();
    return { tree, skipped };
  }

  /** Files the index does not hold as they are now: new, changed or gone (`.gitignore` honoured). */
  private async changedFiles(): Promise<string[]> {
    const out = await this.git.ok([
      "ls-files",
      "-z",
      "--others",
      "--modified",
      "--deleted",
      "--exclude-standard",
    ]);
    return [
      ...new Set(
        out
          .toString("utf8")
          .split("\0")
          .filter((p) => p !== ""),
      ),
    ];
  }

  /** The paths whose blobs differ between two snapshots, and changed paths that were not kept. */
  private async difference(before: Snapshot, after: Snapshot, scope: ChangeScope): Promise<RecordedChange> {
    const files: FileChange[] = [];
    const skipped: SkippedPath[] = [];
    if (before.tree !== after.tree) {
      const paths = scope === "workspace" ? [] : ["--", ...scope.paths.map(slashes)];
      const out = await this.git.ok([
        "diff-tree",
        "-r",
        "-z",
        "--no-renames",
        "--raw",
        before.tree,
        after.tree,
        ...paths,
      ]);
      for (const entry of parseRawDiff(out.toString("utf8"))) {
        if (entry.before?.mode === "160000" || entry.after?.mode === "160000") {
          skipped.push({ path: entry.path, reason: "a nested git repository" });
        } else files.push(entry);
      }
    }
    for (const [path, { reason, signature }] of after.skipped) {
      const same = before.skipped.get(path)?.signature === signature && signature !== "";
      if (!same) skipped.push({ path, reason });
    }
    return { files, skipped };
  }
}

const ZERO = /^0+$/;

/** Parses `git diff-tree -r -z --raw`: `:oldmode newmode oldsha newsha status\0path\0` per entry. */
export function parseRawDiff(text: string): FileChange[] {
  const fields = text.split("\0");
  const changes: FileChange[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const [oldMode, newMode, oldBlob, newBlob] = (fields[i] ?? "").replace(/^:/, "").split(" ");
    const path = fields[i + 1] ?? "";
    if (oldMode === undefined || newMode === undefined || oldBlob === undefined || newBlob === undefined)
      continue;
    changes.push({ path, before: stored(oldMode, oldBlob), after: stored(newMode, newBlob) });
  }
  return changes;
}

function stored(mode: string, blob: string): StoredFile | null {
  return ZERO.test(mode) || ZERO.test(blob) ? null : { blob, mode };
}

function slashes(path: string): string {
  return path.split("\\").join("/").replace(/^\.\//, "");
}
