/** `agent rewind [SESSION] [--to N] [--code|--conversation] [--undo]`. Work lives in rewind-run.ts. */
import type { Command } from "commander";
import type { CommandModule } from "../shared/command-module.ts";
import { commandIo } from "../shared/io/command-io.ts";
import type * as RewindRun from "./rewind-run.ts";
import type { RewindFlags } from "./rewind-run.ts";

export const rewindCommand: CommandModule<typeof RewindRun> = {
  register(program: Command, load, io) {
    program
      .command("rewind")
      .description(
        "restore the files the agent changed and/or the conversation to before an earlier user message (docs/rewind.md)",
      )
      .argument(
        "[session]",
        "the session id or its short form, as --resume takes it (default: this workspace's latest)",
      )
      .option("--to <n>", "the user message to go back to, counted from 1 (default 1: the session's start)")
      .option("--code", "restore only the files (the conversation goes on from where it is)")
      .option("--conversation", "rewind only the conversation (the files stay as they are)")
      .option("--undo", "undo the session's last rewind")
      .option("--cwd <dir>", "the workspace (default: the current directory)")
      .action(async (session: string | undefined, flags: RewindFlags) => {
        const { rewindMain } = await load();
        await rewindMain(session, flags, commandIo(io));
      });
  },
};
