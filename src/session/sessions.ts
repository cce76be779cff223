import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { AppError } from "../kernel/errors.ts";
import { sessionsDir } from "../kernel/files/paths.ts";
import type { AgentEvent } from "../kernel/run-events/events.ts";
import { didYouMean } from "../kernel/text/did-you-mean.ts";
import { isSafeSessionId, shortSessionId } from "./session-id.ts";

/** A transcript read back: its events in order, and warnings about what was skipped. */
export interface TranscriptContents {
  id: string;
  path: string;
  events: AgentEvent[];
  /** E.g. a torn last line that was skipped. */
  warnings: string[];
}

export interface DirOption {
  /** Directory of transcripts; defaults to `sessionsDir()`. */
  dir?: string;
}

/**
 * Resolves a session id (or a unique prefix of it or of its short form) to its transcript path.
 * An unknown or ambiguous id is an AppError of kind "session" (exit 2), never a new session.
 */
export function findSession(id: string, options: DirOption = {}): string {
  const dir = options.dir ?? sessionsDir();
  if (!isSafeSessionId(id)) throw new AppError("session", `invalid session id "${id}"`);
  const exact = join(dir, `${id}.jsonl`);
  if (existsSync(exact)) return exact;
  // A prefix of the full id, or of its short form (the random suffix `agent sessions list` shows).
  const matches = sessionIds(dir).filter(
    (candidate) => candidate.startsWith(id) || shortSessionId(candidate).startsWith(id),
  );
  if (matches.length === 1 && matches[0] !== undefined) return join(dir, `${matches[0]}.jsonl`);
  if (matches.length > 1) {
    throw new AppError("session", `session id "${id}" is ambiguous: ${matches.slice(0, 5).join(", ")}`);
  }
  // A mistyped short id (`ab12dc` for `ab12cd`): the nearest session's short id, as `sessions list` shows it.
  const near = didYouMean(id, sessionIds(dir).map(shortSessionId));
  throw new AppError("session", `unknown session "${id}"${near} (see \`agent sessions list\`)`, {
    file: exact,
  });
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

/** Ids of every transcript in the directory, in no particular order. */
export function sessionIds(dir: string): string[] {
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
