/**
 * The transcript records of checkpoints and rewinds (docs/rewind.md): which files an agent's call changed,
 * as blob ids in the session's checkpoint store (a shadow git repository outside the workspace), and what a
 * rewind restored. Rewinds are planned from these records only, never from text a model or a file wrote.
 */

/** A file's content in the checkpoint store: a git blob id and its mode. */
export interface StoredFile {
  blob: string;
  /** `100644` file, `100755` executable, `120000` symbolic link (the blob holds its target). */
  mode: string;
}

/** One path a call (or a rewind) changed: its state before and after; null where the file did not exist. */
export interface FileChange {
  /** Workspace-relative path, `/`-separated. */
  path: string;
  before: StoredFile | null;
  after: StoredFile | null;
}

/** A path a change touched that the store did not keep (larger than the cap, not a regular file). */
export interface SkippedPath {
  path: string;
  reason: string;
}

/** Payload of a `checkpoint` event: what one tool call changed in the workspace. */
export interface CheckpointData {
  /** The tool that made the change (`write_file`, `edit_file`, `apply_patch`, `exec`). */
  tool: string;
  /** The tool call's id. */
  callId: string;
  /** The user message (counted from 1 in the conversation as it stands) the change belongs to. */
  turn: number;
  files: FileChange[];
  /** Changed paths that were not kept (they cannot be restored). */
  skipped?: SkippedPath[];
}

/** Payload of a `rewind` event: what a rewind (or its undo) did. */
export interface RewindData {
  /** The user message rewound to (1 = the session's start). */
  to: number;
  code: boolean;
  conversation: boolean;
  /** What was written back (before: the file as the rewind found it; after: as it left it). */
  files: FileChange[];
  /** Paths left alone: changed by someone else since the agent left them, or not kept in the store. */
  kept: SkippedPath[];
  /** Set on the record of an undo: it reverses the last rewind. */
  undo?: true;
}
