import {
  closeSync,
  existsSync,
  fstatSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { AppError } from "../kernel/errors.ts";
import type { AgentEvent } from "../kernel/events.ts";
import { sessionsDir } from "../kernel/paths.ts";
import type { Redactor } from "../kernel/redact.ts";

import { isSafeSessionId, newSessionId } from "./session-id.ts";

/** Options for {@link openTranscript}. */
export interface TranscriptOptions {
  /** Resume this existing session (its file must exist); omit to start a new session with a fresh id. */
  sessionId?: string;
  /** Directory of transcripts; defaults to `sessionsDir()` (`$XDG_STATE_HOME/agent/sessions`). */
  dir?: string;
  /** Removes secrets from every record before it is written. */
  redactor: Redactor;
}

/** An open session transcript: one JSON record per line in `<dir>/<id>.jsonl`. */
export interface Transcript {
  readonly id: string;
  readonly path: string;
  /** Set when resuming dropped an unparsable, torn last line left by a crash. */
  readonly repairedTornLine: boolean;
  /** Redacts and writes the event synchronously; it is on disk when this returns. */
  append(event: AgentEvent): void;
  /** Closes the file; later appends throw. Safe to call twice. */
  close(): void;
}

/**
 * Opens (creating when new) the transcript of a session. Every append is one `write(2)` of one line on a
 * file opened for appending, so a crash or Ctrl-C loses nothing already emitted.
 */
export function openTranscript(options: TranscriptOptions): Transcript {
  const dir = options.dir ?? sessionsDir();
  const id = options.sessionId ?? newSessionId();
  if (!isSafeSessionId(id)) throw new AppError("session", `invalid session id "${id}"`);
  const path = join(dir, `${id}.jsonl`);
  if (options.sessionId !== undefined && !existsSync(path)) {
    throw new AppError("session", `unknown session "${id}": no transcript at ${path}`, { file: path });
  }
  let fd: number | undefined = openForAppend(dir, path);
  const repairedTornLine = dropTornTail(fd);
  const { redactor } = options;

  return {
    id,
    path,
    repairedTornLine,
    append(event) {
      if (fd === undefined) throw new Error(`transcript ${id} is closed`);
      const line = `${JSON.stringify(redactor.redactValue(event))}\n`;
      writeSync(fd, line);
    },
    close() {
      if (fd === undefined) return;
      closeSync(fd);
      fd = undefined;
    },
  };
}

/**
 * Creates the sessions directory and opens the transcript. A state directory that cannot be written
 * (not a directory, no permission, read-only file system) is a configuration error naming the path
 * (exit 3), raised before the run starts: a run never goes on without its transcript.
 */
function openForAppend(dir: string, path: string): number {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return openSync(path, "a+", 0o600);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new AppError(
      "config",
      `cannot write session transcripts to ${dir} (${code}); set XDG_STATE_HOME to a writable directory`,
      { file: dir },
    );
  }
}

/**
 * Handles a last line that lacks its newline (a write torn by a crash): an unparsable one is cut off,
 * a complete one gets its newline, so new records always start on a fresh line. Returns true when cut.
 */
function dropTornTail(fd: number): boolean {
  const size = fstatSync(fd).size;
  if (size === 0) return false;
  const last = Buffer.alloc(1);
  readSync(fd, last, 0, 1, size - 1);
  if (last[0] === 0x0a) return false;
  const lineStart = lastLineStart(fd, size);
  const tail = Buffer.alloc(size - lineStart);
  readSync(fd, tail, 0, tail.length, lineStart);
  if (parses(tail.toString("utf8"))) {
    writeSync(fd, "\n");
    return false;
  }
  ftruncateSync(fd, lineStart);
  return true;
}

/** Offset just after the last newline of the file (0 when there is none). */
function lastLineStart(fd: number, size: number): number {
  const chunk = Buffer.alloc(64 * 1024);
  let end = size;
  while (end > 0) {
    const start = Math.max(0, end - chunk.length);
    const length = end - start;
    readSync(fd, chunk, 0, length, start);
    const nl = chunk.subarray(0, length).lastIndexOf(0x0a);
    if (nl >= 0) return start + nl + 1;
    end = start;
  }
  return 0;
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
