import type { SandboxFlags } from "../shared/flags/sandbox-flags.ts";
import type { CassetteFlags, OutputFormat } from "../shared/flags/shared-flags.ts";
import type { SystemFlags } from "../shared/flags/system-flag.ts";

/** Flags of `agent helper`, as commander parses them. */
export interface HelperFlags extends SystemFlags, CassetteFlags, SandboxFlags {
  tier: string;
  model?: string;
  /** `-o json`, or `--json` (kept as an alias). */
  output: OutputFormat;
  json?: boolean;
  tools?: string;
  maxTurns?: string;
  timeout?: string;
  maxBudgetUsd?: string;
  maxTokens?: string;
  schema?: string;
  verbose?: boolean;
  /** False with `--no-fallback`. */
  fallback?: boolean;
}
