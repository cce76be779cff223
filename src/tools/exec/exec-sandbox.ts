/* The shape of a probed sandbox, in a leaf module: sandbox.ts builds it, workspace.ts carries it. */

/** A working sandbox: how exec and verify commands are wrapped. */
export interface ExecSandbox {
  mode: "workspace-write" | "read-only";
  network: boolean;
  /** Absolute path of the bwrap binary that passed the probe. */
  bwrap: string;
  /** Real paths of the workspace roots: writable in workspace-write mode, read-only otherwise. */
  roots: readonly string[];
  /** Real paths inside writable roots that stay read-only (`.git`, `.agent`, the user's own files). */
  readOnlyPaths: readonly string[];
  /** The privilege-dropping arguments that passed the probe (one of ISOLATIONS). */
  isolation: readonly string[];
}
