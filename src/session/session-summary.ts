/**
 * What `agent sessions list`, `-c/--continue` and `--resume` need to know about a transcript without
 * loading it: its workspace, start time, runs (turns), total cost and last status. Reads the file in
 * chunks and parses only the root's session_start and session_end records, with bounded memory
 * (record-lines.ts).
 */
import { closeSync, fstatSync, openSync } from "node:fs";
import { join } from "node:path";
import { sessionsDir } from "../kernel/files/paths.ts";
import type { AgentEvent, RunStatus } from "../kernel/run-events/events.ts";
import { rootSessionRecords } from "./record-lines.ts";
import { shortSessionId } from "./session-id.ts";
import { type DirOption, parseRecord, sessionIds } from "./sessions.ts";

/** One line of `agent sessions list`. */
export interface SessionSummary {
  id: string;
  path: string;
  /** Start time (ms since the epoch): the first record's time, else the file's mtime. */
  time: number;
  /** Last write to the transcript (ms since the epoch): what "the most recent session" means. */
  lastActive: number;
  /** The workspace the session belongs to (the first session_start's `cwd`; "" when unknown). */
  cwd: string;
  goal: string;
  agentName: string;
  model: string;
  /** Runs of the root agent in this session: one per `agent run`, resume or chat message. */
  turns: number;
  /** Cost in USD summed over those runs. */
  costUsd: number;
  /** The root's last status, or "incomplete" when no root session_end was written (running or crashed). */
  status: RunStatus | "incomplete";
  /** The first line of the last answer, at most 80 characters. */
  answerPreview: string;
}

/** Options of {@link listSessions}. */
export interface ListOptions extends DirOption {
  /** Only the sessions of this workspace (an absolute, real path). */
  workspace?: string;
}

/** Summaries of the transcripts in the directory (of one workspace when asked), newest first. */
export function listSessions(options: ListOptions = {}): SessionSummary[] {
  const dir = options.dir ?? sessionsDir();
  const summaries = sessionIds(dir)
    .map((id) => summarizeSession(id, join(dir, `${id}.jsonl`)))
    .filter((s) => options.workspace === undefined || s.cwd === options.workspace);
  return summaries.sort((a, b) => b.time - a.time || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}

/** The session of this workspace written to last (what `-c` continues), or undefined when it has none. */
export function latestSession(workspace: string, options: DirOption = {}): SessionSummary | undefined {
  const mine = listSessions({ ...options, workspace });
  return mine.sort((a, b) => b.lastActive - a.lastActive || b.time - a.time)[0];
}

/** The short id of each session: its random suffix, or the full id where two suffixes clash. */
export function displayIds(sessions: readonly { id: string }[]): Map<string, string> {
  const counts = new Map<string, number>();
  for (const { id } of sessions) counts.set(shortSessionId(id), (counts.get(shortSessionId(id)) ?? 0) + 1);
  return new Map(
    sessions.map(({ id }) => [id, counts.get(shortSessionId(id)) === 1 ? shortSessionId(id) : id]),
  );
}

/** Summarizes one transcript from its root session_start and session_end records. */
export function summarizeSession(id: string, path: string): SessionSummary {
  const fd = openSync(path, "r");
  try {
    const stats = fstatSync(fd);
    const summary: SessionSummary = {
      id,
      path,
      time: stats.mtimeMs,
      lastActive: stats.mtimeMs,
      cwd: "",
      goal: "",
      agentName: "",
      model: "",
      turns: 0,
      costUsd: 0,
      status: "incomplete",
      answerPreview: "",
    };
    for (const line of rootSessionRecords(fd, stats.size)) {
      const event = parseRecord(line);
      if (event !== undefined && event.depth === 0) addToSummary(summary, event);
    }
    return summary;
  } finally {
    closeSync(fd);
  }
}

function addToSummary(summary: SessionSummary, event: AgentEvent): void {
  if (event.kind === "session_start") {
    if (summary.turns === 0) {
      summary.time = event.time;
      summary.cwd = event.data.cwd;
      summary.goal = event.data.goal;
      summary.agentName = event.data.agentName;
    }
    summary.model = event.data.model;
    summary.turns += 1;
    summary.status = "incomplete";
    summary.answerPreview = "";
  } else if (event.kind === "session_end") {
    summary.status = event.data.status;
    summary.answerPreview = preview(event.data.answer);
    summary.costUsd += event.data.usage.find((r) => r.depth === 0)?.subtree.costUsd ?? 0;
  }
}

function preview(answer: string): string {
  const line = answer.trim().split("\n")[0] ?? "";
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}
