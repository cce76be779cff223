/**
 * `agent rewind`: a `run` session's files and/or conversation back to before an earlier user message, or
 * the undo of its last rewind (docs/rewind.md). The session's transcript is locked first (a session still
 * running is refused), the files are restored from the checkpoint store, and a `rewind` record is appended,
 * so the next `agent run -c` continues from that point. Exit 0 when everything was restored; 1 when a
 * file was left alone (changed by someone else since the agent left it, or not kept); 2 for bad usage.
 */
import { realpathSync } from "node:fs";
import { basename, dirname } from "node:path";
import { sessionsDir } from "../../kernel/files/paths.ts";
import { AppError, makeEvent, terminalSafe } from "../../kernel/index.ts";
import { Redactor } from "../../kernel/text/redact.ts";
import { latestSession } from "../../session/session-summary.ts";
import { findSession, readTranscript } from "../../session/sessions.ts";
import { openTranscript } from "../../session/transcript.ts";
import { Workspace } from "../../tools/workspace.ts";
import { CliExit } from "../shared/command-module.ts";
import type { CommandIo } from "../shared/io/command-io.ts";
import { rewindSession, rewindText } from "../shared/session/rewind-action.ts";
import { shortIdOf } from "../shared/session/session-continue.ts";

/** Flags of `agent rewind`. */
export interface RewindFlags {
  to?: string;
  code?: boolean;
  conversation?: boolean;
  undo?: boolean;
  cwd?: string;
}

/** Runs `agent rewind`; throws AppError for usage and session problems, CliExit(1) when a file was left alone. */
export async function rewindMain(
  session: string | undefined,
  flags: RewindFlags,
  io: CommandIo,
): Promise<void> {
  const to = parseTo(flags.to);
  if (flags.undo && (to !== undefined || flags.code || flags.conversation)) {
    throw new AppError(
      "usage",
      "--undo takes no --to, --code or --conversation: it reverses the last rewind as it was",
    );
  }
  const root = realWorkspace(flags.cwd ?? io.cwd);
  const dir = sessionsDir(io.env);
  const path = session !== undefined ? findSession(session, { dir }) : latestSession(root, { dir })?.path;
  if (path === undefined)
    throw new AppError("session", `no session to rewind in ${root} (see \`agent sessions list\`)`);
  const id = basename(path, ".jsonl");
  // Locked before anything changes: a session still running is refused (session-lock.ts).
  const transcript = openTranscript({
    sessionId: id,
    dir: dirname(path),
    redactor: Redactor.fromEnv(io.env),
  });
  try {
    const { events, warnings } = readTranscript(path);
    for (const warning of warnings) io.stderr.write(`agent: ${warning}\n`);
    const start = events.find((e) => e.kind === "session_start" && e.depth === 0);
    const home = start?.kind === "session_start" ? start.data.cwd : root;
    if (home !== root) {
      throw new AppError(
        "session",
        `session ${shortIdOf(id, dir)} belongs to workspace ${home}, not ${root}; run it there with --cwd`,
      );
    }
    const workspace = await Workspace.open(root);
    const data = await rewindSession(events, workspace, io.env, {
      ...(to !== undefined ? { to } : {}),
      code: flags.code === true || flags.conversation !== true,
      conversation: flags.conversation === true || flags.code !== true,
      ...(flags.undo ? { undo: true } : {}),
    });
    const name = start?.kind === "session_start" ? start.data.agentName : "root";
    transcript.append(makeEvent({ agent: "root", name, depth: 0 }, "rewind", data));
    const short = shortIdOf(id, dir);
    const lines = rewindText(data, `agent rewind ${short} --undo`);
    if (data.conversation) lines.push(`continue from there: agent run --resume ${short} "…"`);
    io.stdout.write(terminalSafe(`${lines.join("\n")}\n`));
    if (data.kept.length > 0) throw new CliExit(1);
  } finally {
    transcript.close();
  }
}

function parseTo(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isInteger(n) || n < 1) {
    throw new AppError("usage", `--to expects a user message number counted from 1, got "${value}"`);
  }
  return n;
}

function realWorkspace(dir: string): string {
  try {
    return realpathSync(dir);
  } catch (error) {
    throw new AppError("usage", `--cwd ${dir}: not a usable directory (${(error as Error).message})`);
  }
}
