import type { FinishReason, RunResult, RunStatus } from "../../kernel/index.ts";

/** How a run finishes: the finished run before usage is attached, and the status its finish reason implies.
 * A leaf module (kernel types only), so output-schema.ts, verify.ts and the loop share it without a circle. */

/** The status a finish reason implies. */
export function statusFor(reason: FinishReason): RunStatus {
  switch (reason) {
    case "stop":
    case "stall":
      return "success";
    case "max_turns":
    case "timeout":
    case "budget":
    case "truncated":
    case "context_window":
      return "limit";
    case "aborted":
      return "interrupted";
    case "verify_failed":
    case "refusal":
    case "malformed_call":
    case "invalid_output":
      return "failure";
    case "approval_needed":
    case "provider_error":
    case "error":
      return "error";
  }
}

/** A finished run before usage is attached. */
export type Finish = Omit<RunResult, "usage" | "status"> & { status?: RunStatus };
