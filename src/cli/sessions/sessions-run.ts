/**
 * `agent sessions list|show`: reads transcripts from the state directory. An unknown or ambiguous id is
 * an AppError of kind "session" (exit 2), raised by findSession.
 */
import { realpathSync } from "node:fs";
import { sessionsDir } from "../../kernel/files/paths.ts";
import { AppError, terminalLine } from "../../kernel/index.ts";
import { formatSession } from "../../session/format-session.ts";
import { displayIds, listSessions, type SessionSummary } from "../../session/session-summary.ts";
import { readTranscript, sessionIds } from "../../session/sessions.ts";
import { formatCost, oneLine } from "../../ui/format.ts";
import { type CommandIo, processIo } from "../shared/io/command-io.ts";
import { safeLine } from "../shared/io/terminal-out.ts";

function pad2(n: number): string {
  return String(n).padStart(2, "0");
}

/** Local time as `YYYY-MM-DD HH:MM`. */
export function formatStartTime(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())} ${pad2(d.getHours())}:${pad2(d.getMinutes())}`;
}

/** The sessions as an aligned table, newest first: short id, start, turns, cost, status, workspace, goal. */
export function formatSessionList(
  sessions: SessionSummary[],
  ids: ReadonlyMap<string, string>,
  home = "",
): string {
  const rows = [
    ["ID", "STARTED", "TURNS", "COST", "STATUS", "WORKSPACE", "GOAL"],
    ...sessions.map((s) =>
      [
        ids.get(s.id) ?? s.id,
        formatStartTime(s.time),
        String(s.turns),
        formatCost(s.costUsd),
        s.status,
        tildePath(s.cwd, home) || "-",
        oneLine(s.goal, 60) || "-",
      ].map(terminalLine),
    ),
  ];
  const last = (rows[0]?.length ?? 1) - 1;
  const widths = rows[0]?.map((_, col) => Math.max(...rows.map((row) => row[col]?.length ?? 0))) ?? [];
  const lines = rows.map((row) =>
    row.map((cell, col) => (col < last ? cell.padEnd(widths[col] ?? 0) : cell)).join("  "),
  );
  return `${lines.join("\n")}\n`;
}

/** `~/x` for a path under the home directory. */
function tildePath(path: string, home: string): string {
  if (home === "" || home === "/") return path;
  return path === home ? "~" : path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
}

/** The real path of the directory, as a workspace records it (Workspace.open resolves symlinks too). */
function workspaceOf(dir: string): string {
  try {
    return realpathSync(dir);
  } catch (error) {
    throw new AppError("usage", `--cwd ${dir}: not a usable directory (${(error as Error).message})`);
  }
}

function parseLimit(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) {
    throw new AppError("usage", `--limit expects a positive whole number, got "${value}"`);
  }
  return n;
}

/** Flags of `agent sessions list`. */
export interface ListFlags {
  json?: boolean;
  limit?: string;
  /** Every workspace's sessions, not only this one's. */
  all?: boolean;
  /** The workspace whose sessions to list (default: the current directory). */
  cwd?: string;
}

/** `agent sessions list [--all] [--cwd DIR] [--json] [--limit N]`. */
export function listSessionsCommand(flags: ListFlags, io: CommandIo = processIo()): void {
  const limit = parseLimit(flags.limit);
  const dir = sessionsDir(io.env);
  const workspace = flags.all ? undefined : workspaceOf(flags.cwd ?? io.cwd);
  const all = listSessions({ dir, ...(workspace !== undefined ? { workspace } : {}) });
  const sessions = limit === undefined ? all : all.slice(0, limit);
  // Short ids are unique among every session, since --resume and show look through them all.
  const ids = displayIds(sessionIds(dir).map((id) => ({ id })));
  if (flags.json) {
    const rows = sessions.map((s) => ({
      ...s,
      shortId: ids.get(s.id) ?? s.id,
      started: new Date(s.time).toISOString(),
    }));
    io.stdout.json(rows, 2);
    return;
  }
  if (sessions.length === 0) {
    const where = workspace !== undefined ? ` of ${workspace} (--all lists every workspace's)` : "";
    io.stderr.write(`agent: no sessions${where} in ${dir}\n`);
    return;
  }
  io.stdout.write(formatSessionList(sessions, ids, io.env.HOME ?? ""));
}

/** `agent sessions show ID [--json]`: warnings about a torn last line go to stderr. */
export function showSessionCommand(id: string, flags: { json?: boolean }, io: CommandIo = processIo()): void {
  const transcript = readTranscript(id, { dir: sessionsDir(io.env) });
  for (const warning of transcript.warnings) io.stderr.write(safeLine`agent: ${warning}\n`);
  if (flags.json) {
    io.stdout.json(transcript);
    return;
  }
  // Human-readable text of model and tool output: the command's TerminalOut filters it.
  io.stdout.write(formatSession(transcript.events));
}
