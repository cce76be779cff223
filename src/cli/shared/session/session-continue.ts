/**
 * Which earlier session a run continues, and the command that continues a run. A session belongs to the
 * workspace it started in: `-c` picks the latest session of this workspace, and `--resume ID` of a session
 * from another workspace is refused (exit 2) with the `--cwd` that runs it there, so an old conversation
 * never acts in a directory its history does not describe.
 */
import { realpathSync } from "node:fs";
import { basename, dirname } from "node:path";
import { type ResumePoint, resumeFrom } from "../../../agents/loop/context/resume.ts";
import { sessionsDir } from "../../../kernel/files/paths.ts";
import { AppError } from "../../../kernel/index.ts";
import { displayIds, latestSession } from "../../../session/session-summary.ts";
import { findSession, readTranscript, sessionIds } from "../../../session/sessions.ts";
import { stderr as processStderr } from "../io/std-streams.ts";

/** The session a run continues. */
export interface Continued {
  sessionId: string;
  path: string;
}

/** The flags that pick a session to continue. */
export interface ContinueFlags {
  resume?: string;
  continue?: boolean;
}

/**
 * The session `-c` or `--resume ID` names, with the conversation to continue; undefined without either.
 * Throws AppError (exit 2): both flags, no session here to continue, an unknown id, or another workspace's.
 */
export function continuedSession(
  flags: ContinueFlags,
  workspaceRoot: string,
  command: "run" | "chat" = "run",
  env: Record<string, string | undefined> = process.env,
  stderr: { write(text: string): unknown } = processStderr,
): (Continued & { point: ResumePoint }) | undefined {
  if (flags.continue && flags.resume !== undefined) {
    throw new AppError("usage", "-c/--continue and --resume cannot be used together: pick one");
  }
  const dir = sessionsDir(env);
  let path: string;
  if (flags.continue) {
    const latest = latestSession(workspaceRoot, { dir });
    if (!latest) {
      throw new AppError(
        "session",
        `no session to continue in ${workspaceRoot} (\`agent sessions list --all\` shows every workspace's)`,
      );
    }
    path = latest.path;
  } else if (flags.resume !== undefined) {
    path = findSession(flags.resume, { dir });
  } else {
    return undefined;
  }
  const { events, warnings } = readTranscript(path);
  for (const warning of warnings) stderr.write(`agent: ${warning}\n`);
  const sessionId = basename(path, ".jsonl");
  const start = events.find((e) => e.kind === "session_start" && e.depth === 0);
  const home = start?.kind === "session_start" ? start.data.cwd : "";
  if (home !== "" && home !== workspaceRoot) {
    const short = shortIdOf(sessionId, dirname(path));
    throw new AppError(
      "session",
      `session ${short} belongs to workspace ${home}, not ${workspaceRoot}; ` +
        `to continue it there: agent ${command} --resume ${short} --cwd ${shellQuote(home)}`,
    );
  }
  return { sessionId, path, point: resumeFrom(events) };
}

/** The short id of a session, or its full id when another session shares the short one. */
export function shortIdOf(sessionId: string, dir: string): string {
  return displayIds(sessionIds(dir).map((id) => ({ id }))).get(sessionId) ?? sessionId;
}

/**
 * The command that continues a session, e.g. `agent run --resume ab12cd` (with `--cwd DIR` when the
 * workspace is not the current directory).
 */
export function resumeCommand(
  command: "run" | "chat",
  sessionId: string,
  workspaceRoot: string,
  env: Record<string, string | undefined> = process.env,
  cwd: string = process.cwd(),
): string {
  const short = shortIdOf(sessionId, sessionsDir(env));
  const here = realOrSelf(cwd) === workspaceRoot ? "" : ` --cwd ${shellQuote(workspaceRoot)}`;
  return `agent ${command} --resume ${short}${here}`;
}

function realOrSelf(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return dir;
  }
}

/** A path as one shell word: as is when plain, single-quoted otherwise. */
function shellQuote(text: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}
