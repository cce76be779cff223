/** `agent worktrees [list] | remove NAME [--force]`: the git worktrees `--worktree` made. Work lives in worktrees-run.ts. */
import type { Command } from "commander";
import type { CommandModule } from "../shared/command-module.ts";
import { commandIo } from "../shared/io/command-io.ts";
import type * as WorktreesRun from "./worktrees-run.ts";
import type { WorktreeListFlags, WorktreeRemoveFlags } from "./worktrees-run.ts";

export const worktreesCommand: CommandModule<typeof WorktreesRun> = {
  register(program: Command, load, io) {
    const worktrees = program
      .command("worktrees")
      .description(
        "the git worktrees of --worktree runs and isolated sub-agents, under $XDG_STATE_HOME/agent/worktrees (exit 2 outside a git repository)",
      );
    worktrees
      .command("list", { isDefault: true })
      .description("(default) list this repository's worktrees: name, branch, changes, created, path")
      .option("--cwd <dir>", "the repository (default: the current directory)")
      .option("--json", "print the worktrees as a JSON array")
      .action(async (flags: WorktreeListFlags) => {
        const { listWorktreesCommand } = await load();
        listWorktreesCommand(flags, commandIo(io));
      });
    worktrees
      .command("remove")
      .description("remove a worktree and its branch; refuses uncommitted or unmerged work without --force")
      .argument("<name>", "the worktree's name, as `agent worktrees` prints it")
      .option("--force", "remove it even with uncommitted changes or commits not merged into HEAD")
      .option("--cwd <dir>", "the repository (default: the current directory)")
      .action(async (name: string, flags: WorktreeRemoveFlags) => {
        const { removeWorktreeCommand } = await load();
        removeWorktreeCommand(name, flags, commandIo(io));
      });
  },
};
