/**
 * Ending every process an exec call started, also those that left its process group (`setsid`, `nohup ... &`,
 * a daemon's double fork). Each call's children carry a marker variable, AGENT_EXEC_ID=<id>, which every
 * descendant inherits whatever group or session it moves to; on Linux the sweep finds them by reading
 * /proc/<pid>/environ and kills them. The marker survives setsid and reparenting; it does not survive a
 * descendant that execs with a cleared environment (`env -i`), and outside Linux (no /proc) only the process
 * group is ended. A cgroup would be stronger, but is not writable for an unprivileged user on most machines
 * (cgroup v1 here; v2 needs a delegated subtree). Prior art: Codex gives each shell command its own process
 * group and, on Linux, PR_SET_PDEATHSIG for the direct child (openai/codex codex-rs/core/src/spawn.rs);
 * neither reaches a setsid daemon, hence the marker.
 */
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";

/** The marker variable's name in exec children's environments. */
export const EXEC_MARKER = "AGENT_EXEC_ID";
/** Rounds of scan-and-kill: a process forking while it is being swept gets found on the next round. */
const MAX_ROUNDS = 5;

/** Calls whose processes may still run; swept again when this process exits (a forced exit included). */
const live = new Set<string>();
let exitHookInstalled = false;

/** A fresh marker value for one exec call; `release` it once the call's processes were swept. */
export function newExecId(): string {
  const id = `${process.pid}-${randomBytes(8).toString("hex")}`;
  live.add(id);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on("exit", () => {
      for (const pending of live) sweepMarked(pending);
    });
  }
  return id;
}

export function releaseExecId(id: string): void {
  live.delete(id);
}

/**
 * SIGKILLs every process whose environment carries AGENT_EXEC_ID=`id` (Linux; elsewhere a no-op).
 * Synchronous, so it also runs from an exit handler. Returns how many processes were signalled.
 */
export function sweepMarked(id: string): number {
  if (process.platform !== "linux") return 0;
  const needle = Buffer.from(`\0${EXEC_MARKER}=${id}\0`);
  const first = Buffer.from(`${EXEC_MARKER}=${id}\0`);
  let killed = 0;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    let found = 0;
    for (const name of readProcOrNull() ?? []) {
      const pid = Number(name);
      if (!Number.isInteger(pid) || pid === process.pid) continue;
      const environ = readEnviron(pid);
      if (environ === null) continue;
      if (!(environ.includes(needle) || environ.subarray(0, first.length).equals(first))) continue;
      try {
        process.kill(pid, "SIGKILL");
        found += 1;
      } catch {
        // gone already, or not ours to signal
      }
    }
    killed += found;
    if (found === 0) break;
  }
  return killed;
}

function readProcOrNull(): string[] | null {
  try {
    return readdirSync("/proc");
  } catch {
    return null;
  }
}

function readEnviron(pid: number): Buffer | null {
  try {
    return readFileSync(`/proc/${pid}/environ`);
  } catch {
    return null; // exited, or another user's process
  }
}
