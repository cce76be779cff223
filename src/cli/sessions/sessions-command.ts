/** `agent sessions list|show ID`: the saved transcripts of `agent run`. Work lives in sessions-run.ts. */
import type { Command } from "commander";
import type { CommandModule } from "../shared/command-module.ts";
import { commandIo } from "../shared/io/command-io.ts";
import type * as SessionsRun from "./sessions-run.ts";
import type { ListFlags } from "./sessions-run.ts";

export const sessionsCommand: CommandModule<typeof SessionsRun> = {
  register(program: Command, load, io) {
    const sessions = program
      .command("sessions")
      .description("saved run transcripts under $XDG_STATE_HOME/agent/sessions");
    sessions
      .command("list", { isDefault: true })
      .description(
        "(default) list this workspace's sessions, newest first: short id, start, turns, cost, status, workspace, goal",
      )
      .option("--all", "list the sessions of every workspace")
      .option("--cwd <dir>", "list the sessions of this workspace (default: the current directory)")
      .option("--json", "print the sessions as a JSON array")
      .option("--limit <n>", "show at most this many")
      .action(async (flags: ListFlags) => {
        const { listSessionsCommand } = await load();
        listSessionsCommand(flags, commandIo(io));
      });
    sessions
      .command("show")
      .description("print a session as readable text (an id or a unique prefix of one)")
      .argument("<id>", "the session id or its short form, as `agent sessions list` prints it")
      .option("--json", "print {id, path, warnings, events} as JSON")
      .action(async (id: string, flags: { json?: boolean }) => {
        const { showSessionCommand } = await load();
        showSessionCommand(id, flags, commandIo(io));
      });
  },
};
