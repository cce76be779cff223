import { ExitCode, type RunResult } from "../../../kernel/index.ts";

/**
 * The documented exit code of a finished run (docs/ci-and-json.md "Exit codes"): 0 done (also after denied tools
 * or a forced answer after a stall), 1 failure or failed verification, 3 a configuration problem found
 * mid-run (a model that cannot be resolved) or a state directory that cannot be written (kind "state"),
 * 4 provider error after retries, 5 a limit ended the run, 6 approval needed with --on-ask fail,
 * 70 an internal error, 130 interrupted (129 when the interrupt was SIGHUP: `interruptedBy` names the
 * signal that ended the run).
 */
export function exitCodeFor(
  result: Pick<RunResult, "status" | "finishReason"> & { error?: { kind: string } },
  interruptedBy?: NodeJS.Signals,
): number {
  switch (result.status) {
    case "success":
      return ExitCode.done;
    case "failure":
      return ExitCode.failure;
    case "limit":
      return ExitCode.limit;
    case "interrupted":
      return interruptedBy === "SIGHUP" ? ExitCode.hangup : ExitCode.interrupted;
    case "error":
      if (result.finishReason === "provider_error") return ExitCode.provider;
      if (result.finishReason === "approval_needed") return ExitCode.approvalNeeded;
      return result.error?.kind === "config" || result.error?.kind === "state"
        ? ExitCode.config
        : ExitCode.internal;
  }
}
