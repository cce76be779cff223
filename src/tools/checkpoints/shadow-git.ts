/**
 * The checkpoint store: a shadow git repository outside the workspace, as Gemini CLI keeps one under
 * `~/.gemini/history/<project_hash>` (geminicli.com/docs/cli/checkpointing; packages/core/src/services/
 * gitService.ts runs git with GIT_DIR and GIT_WORK_TREE and its own GIT_CONFIG_GLOBAL/GIT_CONFIG_SYSTEM).
 * Ours lives under `$XDG_STATE_HOME/agent/checkpoints/<hash of the workspace's real path>`.
 *
 * The workspace is hostile, so nothing it holds may make git run a program or change the bytes it keeps:
 * - the workspace's own `.git` (config, hooks) is never read: GIT_DIR names the shadow repository;
 * - no user or system config: GIT_CONFIG_NOSYSTEM, GIT_CONFIG_GLOBAL=/dev/null, HOME and XDG_CONFIG_HOME
 *   pointed at the shadow repository (so no `~/.config/git/attributes` or `ignore` either);
 * - `-c core.hooksPath=/dev/null` and `-c core.fsmonitor=false`: git-config(1) says core.fsmonitor holds
 *   "the pathname of the fsmonitor hook command", a program git runs (starship/starship#3981 turned it off
 *   for the same reason); the plumbing we run calls no hook, and these keep it so;
 * - `$GIT_DIR/info/attributes` unsets text, eol, filter, ident and working-tree-encoding for every path:
 *   gitattributes(5) gives that file the highest precedence, so a workspace `.gitattributes` cannot name a
 *   filter driver or an end-of-line conversion (the blobs are the files' exact bytes);
 * - GIT_LITERAL_PATHSPECS, so a file named `:(glob)*` is only a name; every other GIT_* variable is dropped.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { accessSync, constants, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** What git printed and how it exited. */
export interface GitOutput {
  code: number;
  stdout: Buffer;
  stderr: string;
}

/** Options every call passes first: no hook, no fsmonitor, no conversion, no automatic gc. */
const SAFE_CONFIG = [
  "core.hooksPath=/dev/null",
  "core.fsmonitor=false",
  "core.untrackedCache=false",
  "core.autocrlf=false",
  "core.safecrlf=false",
  "core.symlinks=true",
  "core.fileMode=true",
  "core.splitIndex=false",
  "core.attributesFile=/dev/null",
  "core.excludesFile=/dev/null",
  "gc.auto=0",
  "maintenance.auto=false",
].flatMap((setting) => ["-c", setting]);

/** Unset for every path (gitattributes(5): `-attr` unsets; info/attributes wins over the work tree's). */
const NO_CONVERSIONS = "* -text -eol -filter -ident -working-tree-encoding -diff -merge\n";

/** The shadow repository of one workspace, with one index per session (concurrent sessions never share). */
export class ShadowGit {
  constructor(
    readonly gitDir: string,
    readonly workTree: string,
    readonly indexFile: string,
    /** The git program, and the PATH it is looked up on and runs with (the session's). */
    private readonly path: string,
    private readonly searchPath: string = process.env.PATH ?? "/usr/bin:/bin",
  ) {}

  /** Creates the repository when missing (bare, no hooks, our attributes). */
  async init(): Promise<void> {
    if (!existsSync(join(this.gitDir, "HEAD"))) {
      mkdirSync(this.gitDir, { recursive: true, mode: 0o700 });
      const made = await this.run(["init", "--quiet", "--bare", "--template=", this.gitDir], "", false);
      if (made.code !== 0) throw new Error(`git init ${this.gitDir}: ${made.stderr.trim()}`);
    }
    mkdirSync(join(this.gitDir, "info"), { recursive: true });
    writeFileSync(join(this.gitDir, "info", "attributes"), NO_CONVERSIONS);
  }

  /** Runs git on the shadow repository with the workspace as its work tree; never throws for an exit code. */
  run(args: readonly string[], input?: string | Buffer, inRepository = true): Promise<GitOutput> {
    return new Promise((resolve, reject) => {
      const program = this.path.includes("/") ? this.path : lookUp(this.path, this.searchPath);
      if (program === undefined) {
        reject(Object.assign(new Error(`${this.path} not found on the PATH`), { code: "ENOENT" }));
        return;
      }
      const child = spawn(program, [...SAFE_CONFIG, ...args], {
        cwd: this.gitDir,
        env: this.env(inRepository),
        stdio: ["pipe", "pipe", "pipe"],
      });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
      child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
      child.on("error", reject);
      child.on("close", (code) =>
        resolve({ code: code ?? 1, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString("utf8") }),
      );
      child.stdin.on("error", () => {});
      child.stdin.end(input ?? "");
    });
  }

  /** Like run(), but a non-zero exit is an Error naming the command and git's message. */
  async ok(args: readonly string[], input?: string | Buffer): Promise<Buffer> {
    const result = await this.run(args, input);
    if (result.code !== 0)
      throw new Error(`git ${args[0]}: ${result.stderr.trim() || `exit ${result.code}`}`);
    return result.stdout;
  }

  /** A minimal environment; `inRepository` false for `git init`, which refuses GIT_WORK_TREE. */
  private env(inRepository: boolean): Record<string, string> {
    const repository = {
      GIT_DIR: this.gitDir,
      GIT_WORK_TREE: this.workTree,
      GIT_INDEX_FILE: this.indexFile,
    };
    return {
      ...(inRepository ? repository : {}),
      PATH: this.searchPath,
      HOME: this.gitDir,
      XDG_CONFIG_HOME: this.gitDir,
      LC_ALL: "C",
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "/dev/null",
      GIT_ATTR_NOSYSTEM: "1",
      GIT_LITERAL_PATHSPECS: "1",
      GIT_NO_REPLACE_OBJECTS: "1",
      GIT_TERMINAL_PROMPT: "0",
    };
  }
}

/** The program's path on `searchPath`, or undefined (spawn looks in the process's own PATH, not the env's). */
function lookUp(program: string, searchPath: string): string | undefined {
  for (const dir of searchPath.split(":")) {
    if (dir === "") continue;
    try {
      accessSync(join(dir, program), constants.X_OK);
      return join(dir, program);
    } catch {
      // not here
    }
  }
  return undefined;
}

/** The shadow repository's folder for a workspace: a hash of its real path, as Gemini CLI keys its own. */
export function shadowDirFor(checkpointsDir: string, workspaceRoot: string): string {
  return join(checkpointsDir, createHash("sha256").update(workspaceRoot).digest("hex").slice(0, 16));
}

/** The id git gives `content` as a blob (`blob <size>\0` then the bytes, SHA-1): to compare a file with a
 * stored one without running git. */
export function blobId(content: Buffer): string {
  return createHash("sha1").update(`blob ${content.length}\0`).update(content).digest("hex");
}
