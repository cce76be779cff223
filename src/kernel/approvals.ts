/** A question the loop asks the user (or the flag/rule standing in for them). Matched by id. */
export interface ApprovalRequest {
  id: string;
  /** Agent id and spec name of the asker. */
  agent: string;
  agentName: string;
  tool: string;
  args: Record<string, unknown>;
  /** What the user should look at: a unified diff for write/edit/patch, the command for exec, the URL for fetch. */
  preview: string;
  /** The exact rule a "yes for this session" answer adds, e.g. `exec:git status`. */
  sessionRule: string;
  /** Why it asks: the rule that decided, or the default. */
  reason: string;
}

export type ApprovalDecision =
  | { kind: "once" }
  | { kind: "session" }
  | { kind: "deny" }
  | { kind: "deny_feedback"; feedback: string };

/** How the loop asks. Implementations: interactive (Ink), flag-driven (--on-ask), scripted (tests). */
export interface Approver {
  decide(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision>;
}

/** Raised by the `--on-ask fail` approver: the run must end with exit code 6. */
export class ApprovalNeededError extends Error {
  constructor(readonly request: ApprovalRequest) {
    super(
      `approval needed for ${request.tool} (${request.preview.split("\n")[0] ?? ""}) and --on-ask is fail`,
    );
    this.name = "ApprovalNeededError";
  }
}
