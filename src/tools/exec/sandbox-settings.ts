/** The sandbox settings a user writes (config `sandbox:`, `--sandbox`); no imports, so flag parsing stays cheap. */

export const SANDBOX_MODES = ["off", "workspace-write", "read-only"] as const;
export type SandboxMode = (typeof SANDBOX_MODES)[number];

/** What the user asked for (config `sandbox:`, then flags); unset fields take the defaults. */
export interface SandboxSettings {
  /** Default: workspace-write where bwrap works, else off with a warning. */
  mode?: SandboxMode;
  /** Let sandboxed commands reach the network (default false). */
  network?: boolean;
  /** Refuse to run (exit 3) rather than run exec unsandboxed when the sandbox is unavailable. */
  required?: boolean;
}
