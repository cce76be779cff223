/** Who answers a session's approval requests: the caller's callback or Approver, replaceable later. */
import type { ApprovalRequest, Approver, ElicitationAnswer, ElicitationQuestion } from "../kernel/index.ts";
import { flagApprover } from "../policy/approvers.ts";
import { approvalMessage, elicitationMessage, type Notify } from "./notifications.ts";
import type { ApproveFn } from "./types.ts";

/** An Approver from what the caller gave: none refuses (like `--on-ask deny`). */
export function approverOf(approve: ApproveFn | Approver | undefined): Approver {
  if (approve === undefined) return flagApprover("deny");
  if (typeof approve === "function") return { decide: async (request, signal) => approve(request, signal) };
  return approve;
}

/**
 * The approver the session's gate holds: it passes each request to the current one, so the CLI can hand
 * over its terminal prompt once the view exists. `source` and `why` (how decisions are reported) are
 * read from the current approver too.
 */
export class SwitchableApprover implements Approver {
  private current: Approver;
  /** Told when a person is asked (notifications.ts); set once the session's notifier exists. */
  notify?: Notify;

  constructor(approve: ApproveFn | Approver | undefined) {
    this.current = approverOf(approve);
  }

  /** Whether the current approver is a person (a terminal prompt, a caller's callback), not a flag. */
  private asksAPerson(): boolean {
    return this.source !== "flag";
  }

  set(approve: ApproveFn | Approver): void {
    this.current = approverOf(approve);
  }

  get source(): unknown {
    return (this.current as { source?: unknown }).source;
  }

  get why(): unknown {
    return (this.current as { why?: unknown }).why;
  }

  decide(request: ApprovalRequest, signal: AbortSignal) {
    if (this.asksAPerson()) this.notify?.("permission_prompt", approvalMessage(request));
    return this.current.decide(request, signal);
  }

  /** An MCP server's form, to the current approver; one that cannot show forms declines it at once. */
  elicit(question: ElicitationQuestion, signal: AbortSignal): Promise<ElicitationAnswer> {
    const current = this.current;
    if (!current.elicit) return Promise.resolve({ action: "decline" });
    this.notify?.("elicitation_dialog", elicitationMessage(question));
    return current.elicit(question, signal);
  }
}
