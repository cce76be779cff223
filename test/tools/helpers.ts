/** Test helpers: real temp workspaces and a ToolContext around them. */

import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redactor } from "../../src/kernel/index.ts";
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
