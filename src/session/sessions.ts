import { closeSync, existsSync, fstatSync, openSync, readdirSync, readFileSync, readSync } from "node:fs";
import { basename, join } from "node:path";
import { AppError } from "../kernel/errors.ts";
import type { AgentEvent, RunStatus } from "../kernel/events.ts";
import { sessionsDir } from "../kernel/paths.ts";
import { isSafeSessionId } from "./session-id.ts";

/** A transcript read back: its events in order, and warnings about what was skipped. */
export interface TranscriptContents {
  id: string;
  path: string;
  events: AgentEvent[];
  /** E.g. a torn last line that was skipped. */
  warnings: string[];
}

/** One line of `agent sessions list`. */
export interface SessionSummary {
  id: string;
  path: string;
  /** Start time (ms since the epoch): the first record's time, else the file's mtime. */
  time: number;
  goal: string;
  agentName: string;
  model: string;
  /** The root's last status, or "incomplete" when no root session_end was written (running or crashed). */
  status: RunStatus | "incomplete";
  /** The first line of the answer, at most 80 characters. */
  answerPreview: string;
}

interface DirOption {
  /** Directory of transcripts; defaults to `sessionsDir()`. */
  dir?: string;
}

/**
 * Resolves a session id (or a unique prefix of one) to its transcript path.
 * An unknown or ambiguous id is an AppError of kind "session" (exit 2), never a new session.
 */
export function findSession(id: string, options: DirOption = {}): string {
  const dir = options.dir ?? sessionsDir();
  if (!isSafeSessionId(id)) throw new AppError("session", `invalid session id "${id}"`);
  const exact = join(dir, `${id}.jsonl`);
  if (existsSync(exact)) return exact;
  const matches = sessionIds(dir).filter((candidate) => candidate.startsWith(id));
  if (matches.length === 1 && matches[0] !== undefined) return join(dir, `${matches[0]}.jsonl`);
  if (matches.length > 1) {
    throw new AppError("session", `session id "${id}" is ambiguous: ${matches.slice(0, 5).join(", ")}`);
  }
  throw new AppError("session", `unknown session "${id}" (see \`agent sessions list\`)`, { file: exact });
}

/**
 * Reads a transcript by id or path. A torn (unparsable) last line is skipped with a warning; an unparsable
 * line anywhere else is an AppError naming the file and line.
 */
export function readTranscript(idOrPath: string, options: DirOption = {}): TranscriptContents {
  const path = looksLikePath(idOrPath) ? idOrPath : findSession(idOrPath, options);
  if (!existsSync(path)) throw new AppError("session", `no transcript at ${path}`, { file: path });
  const lines = readFileSync(path, "utf8").split("\n");
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  const events: AgentEvent[] = [];
  const warnings: string[] = [];
  lines.forEach((line, index) => {
    const event = parseRecord(line);
    if (event !== undefined) {
      events.push(event);
    } else if (index === lines.length - 1) {
      warnings.push(`${path}:${index + 1}: skipped a torn last record (the run was cut off while writing)`);
    } else if (line.trim() !== "") {
      throw new AppError("session", `${path}:${index + 1}: unparsable transcript record`, {
        file: path,
        line: index + 1,
      });
    }
  });
  return { id: basename(path, ".jsonl"), path, events, warnings };
}

/** Summaries of every transcript in the directory, newest first. */
export function listSessions(options: DirOption = {}): SessionSummary[] {
  const dir = options.dir ?? sessionsDir();
  const summaries = sessionIds(dir).map((id) => summarize(id, join(dir, `${id}.jsonl`)));
  return summaries.sort((a, b) => b.time - a.time || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}

function sessionIds(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith(".jsonl"))
    .map((name) => name.slice(0, -".jsonl".length));
}

function looksLikePath(value: string): boolean {
  return value.includes("/") || value.includes("\\") || value.endsWith(".jsonl");
}

/** Parses one record; undefined when it is not JSON or not shaped like an event. */
export function parseRecord(line: string): AgentEvent | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== "object") return undefined;
  const record = value as Record<string, unknown>;
  if (typeof record.kind !== "string" || typeof record.agent !== "string") return undefined;
  if (typeof record.data !== "object" || record.data === null) return undefined;
  return value as AgentEvent;
}

const EDGE_BYTES = 256 * 1024;

/** Reads the first and last records only (a transcript can be large): session_start and session_end. */
function summarize(id: string, path: string): SessionSummary {
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    const summary: SessionSummary = {
      id,
      path,
      time: fstatSync(fd).mtimeMs,
      goal: "",
      agentName: "",
      model: "",
      status: "incomplete",
      answerPreview: "",
    };
    const head = readChunk(fd, 0, Math.min(size, EDGE_BYTES)).split("\n");
    const first = head.length > 1 || size <= EDGE_BYTES ? parseRecord(head[0] ?? "") : undefined;
    if (first?.kind === "session_start") {
      summary.time = first.time;
      summary.goal = first.data.goal;
      summary.agentName = first.data.agentName;
      summary.model = first.data.model;
    }
    const tailStart = Math.max(0, size - EDGE_BYTES);
    const tail = readChunk(fd, tailStart, size - tailStart).split("\n");
    if (tailStart > 0) tail.shift(); // partial first line
    for (let i = tail.length - 1; i >= 0; i--) {
      const event = parseRecord(tail[i] ?? "");
      if (event?.kind === "session_start" && event.depth === 0) break; // resumed and not finished yet
      if (event?.kind === "session_end" && event.depth === 0) {
        summary.status = event.data.status;
        summary.answerPreview = preview(event.data.answer);
        break;
      }
    }
    return summary;
  } finally {
    closeSync(fd);
  }
}

function readChunk(fd: number, position: number, length: number): string {
  const buffer = Buffer.alloc(length);
  const read = readSync(fd, buffer, 0, length, position);
  return buffer.subarray(0, read).toString("utf8");
}

function preview(answer: string): string {
  const line = answer.trim().split("\n")[0] ?? "";
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}
