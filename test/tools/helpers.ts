/** Test helpers: real temp workspaces and a ToolContext around them. */

import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync } from "node:fs";
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { Redactor } from "../../src/kernel/text/redact.ts";
import type { ToolContext } from "../../src/tools/types.ts";
import { Workspace } from "../../src/tools/workspace.ts";

/** A fresh real directory under the system temp dir (realpath'd); remove it with `cleanup`. */
export async function tempDir(prefix = "agent-tools-"): Promise<string> {
  return realpath(await mkdtemp(join(tmpdir(), prefix)));
}

export async function cleanup(...dirs: string[]): Promise<void> {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
}

/** A context for a workspace rooted at `root`. */
export async function contextFor(root: string, extra: Partial<ToolContext> = {}): Promise<ToolContext> {
  return {
    workspace: await Workspace.open(root),
    signal: new AbortController().signal,
    redactor: new Redactor([]),
    ...extra,
  };
}

/** True while `pid` runs (a zombie waiting to be reaped counts as gone). */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    return state !== "Z" && state !== "X";
  } catch {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  }
}

/** Polls until `pid` is gone (a SIGKILL takes a moment to land); false when it still runs after a generous 10 s. */
export async function goneSoon(pid: number): Promise<boolean> {
  for (let i = 0; i < 200; i++) {
    if (!isAlive(pid)) return true;
    await Bun.sleep(50);
  }
  return false;
}

/** A fresh directory outside /tmp (which is private inside the exec sandbox): /var/tmp, else HOME. */
export function outsideTmpDir(prefix = "agent-outside-"): string {
  return mkdtempSync(join(existsSync("/var/tmp") ? "/var/tmp" : homedir(), prefix));
}

/** A new folder `dir` holding links to just these programs from PATH (e.g. bun and bash, without bwrap). */
export function binWithOnly(dir: string, names: readonly string[]): string {
  mkdirSync(dir);
  for (const name of names) {
    const real = Bun.which(name);
    if (real === null) throw new Error(`${name} is not on PATH`);
    symlinkSync(real, join(dir, name));
  }
  return dir;
}
