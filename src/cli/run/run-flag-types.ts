import type { SessionFlags } from "../shared/flags/session-options.ts";
import type { OutputFormat } from "../shared/flags/shared-flags.ts";
import type { SystemFlags } from "../shared/flags/system-flag.ts";

/** Flags of `agent run`, as commander parses them. */
export interface RunFlags extends SessionFlags, SystemFlags {
  schema?: string;
  /** `--plan`: read-only tools, and the answer is a plan (docs/plan-mode.md). */
  plan?: boolean;
  output: OutputFormat;
  onAsk?: "deny" | "fail" | "allow";
  /** `agent -p`: behave as without a terminal (plain output, `--on-ask` decides approvals). */
  printMode?: boolean;
  /** False with `--no-session-persistence`: nothing is written to the state folder, no `continue:` line. */
  sessionPersistence?: boolean;
}
