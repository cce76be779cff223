import {
  closeSync,
  constants,
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
import { sessionsDir } from "../kernel/files/paths.ts";
import { writeAllSync } from "../kernel/files/write-all.ts";
import type { AgentEvent } from "../kernel/run-events/events.ts";
import type { Redactor } from "../kernel/text/redact.ts";

import { isSafeSessionId, newSessionId } from "./session-id.ts";
import { lockSession, type SessionLock } from "./session-lock.ts";
import { stateError } from "./state-error.ts";

/** Options for {@link openTranscript}. */
export interface TranscriptOptions {
  /** Resume this existing session (its file must exist); omit to start a new session with a fresh id. */
  sessionId?: string;
  /** The id of a new session (default: a fresh one); ignored when resuming. */
  newId?: string;
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
 * Opens the transcript of a session: a new one is created exclusively (two runs whose ids collide never
 * share a file), an existing one is opened without following a symlink; both are locked to this process
 * (session-lock.ts), so a concurrent `--resume` of the same session is refused. Every append is one
 * `write(2)` of one line on the descriptor opened here, so a crash or Ctrl-C loses nothing already
 * emitted, and renaming or replacing the path afterwards redirects nothing.
 *
 * A state directory that cannot be written (full, read-only, not a directory, no permission) is an
 * AppError of kind "state" naming the path (exit 3), before the run or at the append that meets it;
 * after such a failure every later append fails the same way, so the run ends on it.
 */
export function openTranscript(options: TranscriptOptions): Transcript {
  const dir = options.dir ?? sessionsDir();
  const resuming = options.sessionId !== undefined;
  const id = options.sessionId ?? options.newId ?? newSessionId();
  if (!isSafeSessionId(id)) throw new AppError("session", `invalid session id "${id}"`);
  const path = join(dir, `${id}.jsonl`);
  if (resuming && !existsSync(path)) {
    throw new AppError("session", `unknown session "${id}": no transcript at ${path}`, { file: path });
  }
  makeDir(dir);
  let lock: SessionLock | undefined;
  try {
    lock = lockSession(id, join(dir, `${id}.lock`));
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw stateError(error, `cannot lock session ${id}`, dir);
  }
  let fd: number | undefined;
  let repairedTornLine = false;
  try {
    fd = resuming ? openExisting(path) : createExclusive(id, path);
    repairedTornLine = dropTornTail(fd);
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    lock.release();
    if (error instanceof AppError) throw error;
    throw stateError(error, "cannot write the session transcript", path);
  }
  const { redactor } = options;
  let failure: AppError | undefined;

  return {
    id,
    path,
    repairedTornLine,
    append(event) {
      if (failure) throw failure;
      if (fd === undefined) throw new Error(`transcript ${id} is closed`);
      const line = `${JSON.stringify(redactor.redactValue(event))}\n`;
      try {
        writeAllSync(fd, line);
      } catch (error) {
        failure = stateError(error, "cannot write the session transcript", path);
        throw failure;
      }
    },
    close() {
      lock?.release();
      lock = undefined;
      if (fd === undefined) return;
      closeSync(fd);
      fd = undefined;
    },
  };
}

function makeDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw stateError(error, "cannot write session transcripts", dir);
  }
}

/** A new transcript: O_EXCL, so an id that collides with an existing file is an error, never a share. */
function createExclusive(id: string, path: string): number {
  try {
    return openSync(
      path,
      constants.O_CREAT | constants.O_EXCL | constants.O_RDWR | constants.O_APPEND,
      0o600,
    );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    throw new AppError("session", `a session named ${id} already exists at ${path}; start the run again`, {
      file: path,
    });
  }
}

/** An existing transcript, appended to; a symlink in its place is refused (ELOOP), not followed. */
function openExisting(path: string): number {
  try {
    return openSync(path, constants.O_RDWR | constants.O_APPEND | constants.O_NOFOLLOW);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ELOOP") throw error;
    throw new AppError("session", `${path} is a symbolic link, not a transcript`, { file: path });
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
