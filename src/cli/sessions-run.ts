/**
 * `agent sessions list|show`: reads transcripts from the state directory. An unknown or ambiguous id is
 * an AppError of kind "session" (exit 2), raised by findSession.
 */
import { AppError, sessionsDir, terminalSafe } from "../kernel/index.ts";
import { formatSession } from "../session/format-session.ts";
import { listSessions, readTranscript, type SessionSummary } from "../session/sessions.ts";
import { oneLine } from "../ui/format.ts";

type Out = { write(text: string): unknown };

/** Where to read and report; tests pass their own. */
export interface SessionsIo {
  env: Record<string, string | undefined>;
  stdout: Out;
  stderr: Out;
}

const defaultIo = (): SessionsIo => ({ env: process.env, stdout: process.stdout, stderr: process.stderr });

function pad2(n: number): string {
  return String(n).padStart(2, "0");
}

/** Local time as `YYYY-MM-DD HH:MM`. */
export function formatStartTime(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())} ${pad2(d.getHours())}:${pad2(d.getMinutes())}`;
}

/** The sessions as an aligned table, newest first. */
export function formatSessionList(sessions: SessionSummary[]): string {
  const rows = [
    ["ID", "STARTED", "STATUS", "GOAL"],
    ...sessions.map((s) => [s.id, formatStartTime(s.time), s.status, oneLine(s.goal, 70) || "-"]),
  ];
  const widths = [0, 1, 2].map((col) => Math.max(...rows.map((row) => row[col]?.length ?? 0)));
  const lines = rows.map((row) =>
    row.map((cell, col) => (col < 3 ? cell.padEnd(widths[col] ?? 0) : cell)).join("  "),
  );
  return `${lines.join("\n")}\n`;
}

function parseLimit(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) {
    throw new AppError("usage", `--limit expects a positive whole number, got "${value}"`);
  }
  return n;
}

/** `agent sessions list [--json] [--limit N]`. */
export function listSessionsCommand(
  flags: { json?: boolean; limit?: string },
  io: SessionsIo = defaultIo(),
): void {
  const limit = parseLimit(flags.limit);
  const dir = sessionsDir(io.env);
  const all = listSessions({ dir });
  const sessions = limit === undefined ? all : all.slice(0, limit);
  if (flags.json) {
    const rows = sessions.map((s) => ({ ...s, started: new Date(s.time).toISOString() }));
    io.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return;
  }
  if (sessions.length === 0) {
    io.stderr.write(`agent: no sessions yet in ${dir}\n`);
    return;
  }
  io.stdout.write(terminalSafe(formatSessionList(sessions)));
}

/** `agent sessions show ID [--json]`: warnings about a torn last line go to stderr. */
export function showSessionCommand(
  id: string,
  flags: { json?: boolean },
  io: SessionsIo = defaultIo(),
): void {
  const transcript = readTranscript(id, { dir: sessionsDir(io.env) });
  for (const warning of transcript.warnings) io.stderr.write(`agent: ${warning}\n`);
  if (flags.json) {
    io.stdout.write(`${JSON.stringify(transcript)}\n`);
    return;
  }
  // Human-readable text of model and tool output: never a way to drive the reader's terminal.
  io.stdout.write(terminalSafe(formatSession(transcript.events)));
}
